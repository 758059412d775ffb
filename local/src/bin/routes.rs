//! Prints every function's routes as JSON (`{"auth": [["POST", "/auth/login"], ...]}`), for
//! the template check (`scripts/check_template.py`).

fn main() {
    let map: serde_json::Map<String, serde_json::Value> = local::FUNCTIONS
        .iter()
        .map(|(name, routes)| {
            let list = routes
                .iter()
                .map(|(m, p)| serde_json::json!([m, p]))
                .collect();
            ((*name).to_owned(), serde_json::Value::Array(list))
        })
        .collect();
    println!("{}", serde_json::Value::Object(map));
}
