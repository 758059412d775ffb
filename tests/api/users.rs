use serde_json::{json, Value};

use crate::accounts::{
    link_token, mails_to, post, request_reset, reset_mails_to, unique_email, verify_email,
    NEW_PASSWORD,
};
use crate::helpers::{assert_problem, spawn_app, spawn_app_and_user, TestUser, PASSWORD};

#[tokio::test]
async fn a_user_reads_and_changes_their_own_profile() {
    let (app, user) = spawn_app_and_user().await;
    let me: Value = app.get_json(&user, "/users/me").await;
    assert_eq!(me["id"], user.id);
    let r = app
        .update_self(&user, &json!({"firstName": "Zoé", "lastName": "Ng"}))
        .await;
    assert_eq!(r.status(), 200);
    let updated: Value = r.json().await.unwrap();
    assert_eq!(
        (updated["firstName"].as_str(), updated["lastName"].as_str()),
        (Some("Zoé"), Some("Ng"))
    );
    assert_eq!(updated["createdAt"], me["createdAt"]);
    assert_eq!(updated["email"], me["email"]);
}

#[tokio::test]
async fn mass_assignment_of_id_role_or_timestamps_is_refused_and_changes_nothing() {
    let (app, user) = spawn_app_and_user().await;
    let path = format!("/users/{}", user.id);
    for body in [
        json!({"id": 1, "firstName": "X"}),
        json!({"createdAt": "2000-01-01T00:00:00", "firstName": "X"}),
        json!({"passwordHash": "x"}),
    ] {
        assert_problem(app.put(&user, &path, &body).await, 400).await;
    }
    // Raising one's own role is forbidden.
    assert_problem(
        app.put(&user, &path, &json!({"role": "ADMIN", "firstName": "X"}))
            .await,
        403,
    )
    .await;
    let me: Value = app.get_json(&user, "/users/me").await;
    assert_eq!(me["role"], "USER");
    assert_eq!(me["firstName"], "Test");
}

#[tokio::test]
async fn an_admin_may_change_roles_and_the_change_applies_to_admin_checks_at_once() {
    let app = spawn_app().await;
    let admin = app.new_admin().await;
    let email = format!("promoted{}@example.com", rand::random::<u32>());
    let user = app.new_user_with_email(&email).await;
    let r = app.set_role(&admin, user.id, "ADMIN").await;
    assert_eq!(r.status(), 200);
    // A role change ends the user's sessions and the access tokens of before.
    assert_problem(app.get(&user, "/users").await, 403).await;
    let login = app.login_json(&email, PASSWORD).await;
    let user = TestUser {
        id: user.id,
        token: login["token"].as_str().unwrap().to_owned(),
    };
    assert_eq!(app.get(&user, "/users").await.status(), 200);
    let r = app.set_role(&admin, user.id, "USER").await;
    assert_eq!(r.status(), 200);
    // The token still says ADMIN: refused, and admin endpoints check the stored role.
    assert_problem(app.get(&user, "/users").await, 403).await;
}

#[tokio::test]
async fn changing_the_email_keeps_it_unique_and_frees_the_old_one() {
    let app = spawn_app().await;
    let ann = app.new_user_with_email("ann@example.com").await;
    let bob = app.new_user_with_email("bob@example.com").await;
    let r = app
        .update_self(
            &bob,
            &json!({"email": "ANN@example.com", "currentPassword": PASSWORD}),
        )
        .await;
    assert_problem(r, 409).await;
    let r = app
        .update_self(
            &ann,
            &json!({"email": "ann.new@example.com", "currentPassword": PASSWORD}),
        )
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(
        app.login("ann.new@example.com", PASSWORD).await.status(),
        200
    );
    assert_eq!(app.login("ann@example.com", PASSWORD).await.status(), 401);
    // The old address is free again.
    app.new_user_with_email("ann@example.com").await;
}

#[tokio::test]
async fn changing_the_password_requires_the_current_one() {
    let app = spawn_app().await;
    let user = app.new_user_with_email("pw@example.com").await;
    let new = "a brand new passphrase";
    let r = app.update_self(&user, &json!({"password": new})).await;
    assert_problem(r, 403).await;
    let r = app
        .update_self(
            &user,
            &json!({"password": new, "currentPassword": "wrong one entirely"}),
        )
        .await;
    assert_problem(r, 403).await;
    let r = app
        .update_self(
            &user,
            &json!({"password": new, "currentPassword": PASSWORD}),
        )
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(app.login("pw@example.com", new).await.status(), 200);
    assert_eq!(app.login("pw@example.com", PASSWORD).await.status(), 401);
}

#[tokio::test]
async fn only_admins_list_users_a_page_at_a_time() {
    let app = spawn_app().await;
    let admin = app.new_admin().await;
    for _ in 0..4 {
        app.new_user().await;
    }
    let user = app.new_user().await;
    assert_problem(app.get(&user, "/users").await, 403).await;
    let mut seen = Vec::new();
    for page in app.pages(&admin, "/users?limit=2").await {
        assert!(page.len() <= 2);
        for u in &page {
            assert!(u.get("passwordHash").is_none() && u.get("password").is_none());
            seen.push(u["id"].as_u64().unwrap());
        }
    }
    assert_eq!(seen.len(), 6);
    let mut sorted = seen.clone();
    sorted.sort_unstable();
    assert_eq!(seen, sorted);

    // The cursor is opaque and sealed: a bare user id, an altered cursor, or one issued to
    // another admin is refused.
    let r = app.get(&admin, "/users?limit=2").await;
    let link = r.headers()["link"].to_str().unwrap().to_owned();
    let cursor = link[link.find("cursor=").unwrap() + 7..link.find('>').unwrap()].to_owned();
    let other = app.new_admin().await;
    let mut altered = cursor.clone().into_bytes();
    altered[0] = if altered[0] == b'A' { b'B' } else { b'A' };
    let altered = String::from_utf8(altered).unwrap();
    for (who, c) in [
        (&admin, seen[1].to_string()),
        (&admin, altered),
        (&other, cursor.clone()),
    ] {
        let problem = assert_problem(app.get(who, &format!("/users?cursor={c}")).await, 400).await;
        assert!(problem.to_string().contains("cursor"), "{problem}");
    }
    let r = app
        .get(&admin, &format!("/users?limit=2&cursor={cursor}"))
        .await;
    assert_eq!(r.status(), 200);
}

/// A stolen access token, even in the first minutes of its login, cannot move the address:
/// the e-mail changes only with `currentPassword`. The old address is told when it changed,
/// and reset links keep going to it until the new one is verified, so whoever moved the
/// address does not also receive the links that set the password.
#[tokio::test]
async fn an_email_change_needs_the_password_tells_the_old_address_and_keeps_its_resets() {
    let app = spawn_app().await;
    let old = unique_email("moving");
    let user = app.new_user_with_email(&old).await;
    let path = format!("/users/{}", user.id);
    let new = unique_email("moved-to");
    // Right after the login (a recent one), the e-mail alone is refused; nothing changes.
    assert_problem(app.put(&user, &path, &json!({"email": new})).await, 403).await;
    let me: Value = app.get_json(&user, "/users/me").await;
    assert_eq!(me["email"], old.as_str());
    // Nor does a bodiless self-delete need more than the recent login (the spec's), shown
    // in accounts.rs; here the password moves the address.
    let body = json!({"email": new, "currentPassword": PASSWORD});
    let r = app.put(&user, &path, &body).await;
    assert_eq!(r.status(), 200);
    let changed_at = r.json::<Value>().await.unwrap()["updatedAt"]
        .as_str()
        .unwrap()
        .to_owned();
    let notice = mails_to(&old, 2)
        .await
        .into_iter()
        .find(|m| m["subject"] == "The e-mail address of your account changed")
        .expect("the old address is told");
    let text = notice["text"].as_str().unwrap();
    assert!(text.contains(&format!("{changed_at} UTC")), "{text}");

    // A reset asked for the new, unverified address is mailed to the old one.
    assert_eq!(request_reset(&app, &new).await.status(), 202);
    let token = link_token(&old, "reset-password", 3).await;
    let resets_to_new = reset_mails_to(&new, 0).await;
    assert_eq!(resets_to_new, 0);
    let confirm =
        json!({"token": token, "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD});
    let r = post(&app, "/auth/password-reset/confirm", confirm).await;
    assert_eq!(r.status(), 200);
    let reset: Value = r.json().await.unwrap();
    // The link proved the old mailbox, not the new one.
    assert_eq!(reset["user"]["emailVerified"], false);

    // Once the new address is verified, resets go to it.
    let verify = link_token(&new, "verify-email", 1).await;
    assert_eq!(verify_email(&app, &verify).await.status(), 204);
    assert_eq!(request_reset(&app, &new).await.status(), 202);
    link_token(&new, "reset-password", 2).await;
}
