//! Sign-in throttling per client address and per account (governor's keyed limiters).

use std::{num::NonZeroU32, time::Duration};

use governor::{
    clock::{Clock, DefaultClock},
    DefaultKeyedRateLimiter, Quota, RateLimiter,
};

use crate::error::ApiError;

pub struct LoginThrottle {
    per_ip: DefaultKeyedRateLimiter<String>,
    per_account: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
}

impl LoginThrottle {
    /// `per_minute` attempts per account; a client address gets five times that,
    /// so one office behind a proxy can still sign in together.
    pub fn new(per_minute: u32) -> Self {
        let account = NonZeroU32::new(per_minute.max(1)).expect("non-zero");
        let ip = NonZeroU32::new(per_minute.max(1).saturating_mul(5)).expect("non-zero");
        Self {
            per_ip: RateLimiter::keyed(Quota::per_minute(ip)),
            per_account: RateLimiter::keyed(Quota::per_minute(account)),
            clock: DefaultClock::default(),
        }
    }

    /// Counts one attempt; 429 with Retry-After when either budget is spent.
    pub fn check(&self, ip: &str, email: &str) -> Result<(), ApiError> {
        for (limiter, key) in [(&self.per_ip, ip), (&self.per_account, email)] {
            if let Err(not_until) = limiter.check_key(&key.to_owned()) {
                let wait = not_until.wait_time_from(self.clock.now());
                return Err(ApiError::TooManyRequests { retry_after_secs: retry_secs(wait) });
            }
        }
        Ok(())
    }

    /// Drops idle keys so the maps do not grow without bound.
    pub fn forget_idle(&self) {
        self.per_ip.retain_recent();
        self.per_account.retain_recent();
    }
}

fn retry_secs(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_budget_is_per_account() {
        let t = LoginThrottle::new(3);
        for _ in 0..3 {
            t.check("1.1.1.1", "a@b.org").unwrap();
        }
        match t.check("1.1.1.1", "a@b.org") {
            Err(ApiError::TooManyRequests { retry_after_secs }) => {
                assert!((1..=60).contains(&retry_after_secs))
            }
            other => panic!("{other:?}"),
        }
        t.check("1.1.1.1", "c@d.org").unwrap();
    }

    #[test]
    fn address_budget_is_five_times_larger() {
        let t = LoginThrottle::new(2);
        for i in 0..10 {
            t.check("2.2.2.2", &format!("user{i}@b.org")).unwrap();
        }
        assert!(t.check("2.2.2.2", "fresh@b.org").is_err());
        t.check("3.3.3.3", "fresh@b.org").unwrap();
    }

    #[test]
    fn retry_rounds_up() {
        assert_eq!(retry_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_secs(Duration::from_secs(6)), 6);
    }
}
