//! The local server's JWT signing secret when `JWT_SECRET` is unset: 32 random bytes from
//! the operating system, hex-encoded, kept in a file only its owner can read so that tokens
//! survive restarts of `make run`.

use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

use anyhow::Context;
use shared::config::{check_secret, Secret};

/// Reads the secret at `path`, or creates it (mode 0600). A file that fails the secret
/// check (short, placeholder, not random) is replaced; one readable by others is made
/// private.
pub fn load_or_create(path: &Path) -> anyhow::Result<Secret> {
    if let Ok(existing) = std::fs::read(path) {
        if check_secret(&existing).is_ok() {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                .with_context(|| format!("making {} private", path.display()))?;
            return Ok(Secret::new(existing));
        }
    }
    // The OS generator; there is no fallback: without randomness there is no secret.
    let bytes: [u8; 32] = rand::random();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    check_secret(hex.as_bytes()).map_err(|e| anyhow::anyhow!("generated secret {e}"))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let _ = std::fs::remove_file(path);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    file.write_all(hex.as_bytes())?;
    Ok(Secret::new(hex.into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_path(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("secret-test-{}", rand::random::<u64>()));
        dir.join(name)
    }

    #[test]
    fn a_new_secret_is_random_private_and_kept() {
        let path = temp_path("jwt-secret");
        let first = load_or_create(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "mode {mode:o}");
        assert!(check_secret(first.expose()).is_ok());
        assert_ne!(first.expose(), [b'0'; 64].as_slice(), "never all zeros");
        let again = load_or_create(&path).unwrap();
        assert_eq!(first.expose(), again.expose());
        let other = load_or_create(&temp_path("jwt-secret")).unwrap();
        assert_ne!(first.expose(), other.expose());
    }

    #[test]
    fn weak_or_exposed_files_are_fixed() {
        let path = temp_path("jwt-secret");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "0".repeat(64)).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let secret = load_or_create(&path).unwrap();
        assert!(
            check_secret(secret.expose()).is_ok(),
            "the zero secret is replaced"
        );
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
