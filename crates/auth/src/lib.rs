//! Authentication primitives: password hashing and access tokens.

pub mod cursor;
pub mod password;
pub mod token;

/// The tests' keys of one kind: made from a test secret, and from another secret.
#[cfg(test)]
fn test_keys<K>(make: impl Fn(&pf_config::Secret) -> K) -> (K, K) {
    let secret = |s: &str| pf_config::Secret::new(s.as_bytes().to_vec());
    (
        make(&secret("0123456789abcdef0123456789abcdef")),
        make(&secret("another secret of thirty-two bytes!")),
    )
}
