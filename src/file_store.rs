//! Stored files (receipts today): bytes in an `object_store` (a folder under `--data-dir` by
//! default, S3-compatible storage on the scale-out path) and the key that signs upload URLs.
//! Kernel: it knows bytes and signatures, not what a file belongs to.

use std::{num::NonZeroU32, path::Path, sync::Arc};

use actix_web::web::Bytes;
use governor::{
    clock::{Clock, DefaultClock},
    DefaultKeyedRateLimiter, Quota, RateLimiter,
};
use hmac::{Hmac, Mac};
use object_store::{
    local::LocalFileSystem, path::Path as ObjectPath, ObjectStore, ObjectStoreExt, PutPayload,
};
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult};

#[derive(Clone)]
pub struct FileStore {
    objects: Arc<dyn ObjectStore>,
    key: Arc<[u8; 32]>,
    /// Files announced per user id, per minute.
    announcements: Arc<std::sync::OnceLock<DefaultKeyedRateLimiter<i32>>>,
}

impl FileStore {
    /// A folder `uploads` under the data directory. The signing key is derived from the
    /// JWT secret with a purpose label, so an upload signature is never a token signature.
    pub fn local(data_dir: &Path, secret: &[u8]) -> anyhow::Result<FileStore> {
        let dir = data_dir.join("uploads");
        std::fs::create_dir_all(&dir)?;
        let objects: Arc<dyn ObjectStore> = Arc::new(LocalFileSystem::new_with_prefix(&dir)?);
        Ok(FileStore { objects, key: Arc::new(derive_key(secret)), announcements: Arc::default() })
    }

    /// Takes `files` of the `per_minute` files user `user` may announce, or says when
    /// to try again (429). `per_minute` is the server's flag, the same on every call: the
    /// limiter is made with it on the first.
    pub fn take_announcements(&self, user: i32, files: usize, per_minute: u32) -> ApiResult<()> {
        let per_minute = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
        let limiter =
            self.announcements.get_or_init(|| RateLimiter::keyed(Quota::per_minute(per_minute)));
        let n =
            NonZeroU32::new(u32::try_from(files).unwrap_or(u32::MAX)).unwrap_or(NonZeroU32::MIN);
        match limiter.check_key_n(&user, n) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                Err(ApiError::TooManyRequests { retry_after_secs: wait.as_secs().max(1) })
            }
            Err(_) => Err(ApiError::TooManyRequests { retry_after_secs: 60 }),
        }
    }

    pub fn sign(&self, file_id: &str, expires: i64) -> String {
        sign(&self.key, file_id, expires)
    }

    pub fn verify(&self, file_id: &str, expires: i64, signature: &str) -> bool {
        verify(&self.key, file_id, expires, signature)
    }

    pub async fn put(&self, file_id: &str, bytes: Bytes) -> ApiResult<()> {
        self.objects
            .put(&object_path(file_id), PutPayload::from(bytes))
            .await
            .map(|_| ())
            .map_err(store_error)
    }

    pub async fn read(&self, file_id: &str) -> ApiResult<Bytes> {
        self.objects
            .get(&object_path(file_id))
            .await
            .map_err(store_error)?
            .bytes()
            .await
            .map_err(store_error)
    }

    /// Removes stored bytes after the database no longer points at them; a failure only
    /// leaves an orphan, so it is logged, not returned.
    pub async fn remove(&self, file_id: &str) {
        if let Err(e) = self.objects.delete(&object_path(file_id)).await {
            tracing::warn!(error = %e, file_id, "could not delete a stored file's bytes");
        }
    }
}

fn store_error(e: object_store::Error) -> ApiError {
    if is_disk_full(&e) {
        tracing::error!(error = %e, "the receipts' disk is full");
        return ApiError::disk_full();
    }
    ApiError::Internal(format!("object store: {e}"))
}

/// Whether an error, or one of its causes, is the disk (or the user's disk quota) being full.
fn is_disk_full(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::StorageFull
                || matches!(io.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT))
            {
                return true;
            }
        }
        cause = e.source();
    }
    false
}

fn object_path(file_id: &str) -> ObjectPath {
    ObjectPath::from(format!("receipts/{file_id}"))
}

fn derive_key(secret: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"mentorpay upload url v1\0");
    h.update(secret);
    h.finalize().into()
}

fn mac(key: &[u8; 32], file_id: &str, expires: i64) -> Hmac<Sha256> {
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(format!("PUT\n{file_id}\n{expires}").as_bytes());
    m
}

fn sign(key: &[u8; 32], file_id: &str, expires: i64) -> String {
    hex::encode(mac(key, file_id, expires).finalize().into_bytes())
}

/// Constant-time check of a signature.
fn verify(key: &[u8; 32], file_id: &str, expires: i64, signature: &str) -> bool {
    match hex::decode(signature) {
        Ok(bytes) => mac(key, file_id, expires).verify_slice(&bytes).is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_found_anywhere_in_the_cause_chain() {
        let wrapped = |io: std::io::Error| object_store::Error::Generic {
            store: "LocalFileSystem",
            source: Box::new(io),
        };
        for code in [libc::ENOSPC, libc::EDQUOT] {
            let e = wrapped(std::io::Error::from_raw_os_error(code));
            assert!(is_disk_full(&e), "{e}");
            assert!(matches!(store_error(e), ApiError::Busy { .. }));
        }
        let denied = wrapped(std::io::Error::from_raw_os_error(libc::EACCES));
        assert!(!is_disk_full(&denied));
        assert!(matches!(store_error(denied), ApiError::Internal(_)));
    }

    #[test]
    fn signatures_bind_id_and_expiry() {
        let key = derive_key(b"secret");
        let sig = sign(&key, "abc", 100);
        assert!(verify(&key, "abc", 100, &sig));
        assert!(!verify(&key, "abc", 101, &sig));
        assert!(!verify(&key, "abd", 100, &sig));
        assert!(!verify(&derive_key(b"other"), "abc", 100, &sig));
        assert!(!verify(&key, "abc", 100, "zz"));
        assert!(!verify(&key, "abc", 100, ""));
    }
}
