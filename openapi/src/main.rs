//! Writes `openapi/openapi.json` from the code (run from the workspace root).

fn main() -> std::io::Result<()> {
    std::fs::write(openapi::DOCUMENT_PATH, openapi::document_json())?;
    println!("wrote {}", openapi::DOCUMENT_PATH);
    Ok(())
}
