//! Prints every function's routes as JSON (`{"auth": [["POST", "/auth/login"], ...]}`), for
//! the template check (`scripts/check_template.py`). The docs function's routes follow the
//! default `DOC_PATH`.

fn main() {
    let mut map = serde_json::Map::new();
    for (name, routes) in openapi::routes_by_function() {
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
