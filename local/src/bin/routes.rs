//! Prints every function's routes as JSON (`{"auth": [["POST", "/auth/login"], ...]}`), for
//! the template check (`scripts/check_template.py`). The docs function's routes follow the
//! default `DOC_PATH`; the auth function's pages (`auth_fn::pages`) are routes outside the
//! OpenAPI document, like the docs function's.

fn main() {
    let mut map = serde_json::Map::new();
    for (name, mut routes) in openapi::routes_by_function() {
        if name == "auth" {
            let pages = auth_fn::pages::PATHS.map(|p| ("GET".to_owned(), p.to_owned()));
            routes.extend(pages);
        }
        let list = routes
            .iter()
            .map(|(m, p)| serde_json::json!([m, p]))
            .collect();
        map.insert(name.to_owned(), serde_json::Value::Array(list));
    }
    map.insert(
        "docs".to_owned(),
        serde_json::json!([
            ["GET", docs_fn::DOCUMENT_URL],
            ["GET", "/swagger-ui"],
            ["GET", "/swagger-ui/{proxy+}"]
        ]),
    );
    println!("{}", serde_json::Value::Object(map));
}
