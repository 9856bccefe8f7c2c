//! Where the harness's time comes from: the machine's monotonic clock, or for tests (and report
//! goldens) a fake one that advances a fixed step per reading.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// A monotonic clock in nanoseconds since some origin of its own.
pub trait Clock: Sync {
    /// Nanoseconds since the clock's origin; never decreases.
    fn now(&self) -> u64;
}

/// The machine's monotonic clock.
#[derive(Debug, Clone, Copy)]
pub struct RealClock {
    origin: Instant,
}

impl Default for RealClock {
    fn default() -> Self {
        RealClock {
            origin: Instant::now(),
        }
    }
}

impl Clock for RealClock {
    fn now(&self) -> u64 {
        self.origin.elapsed().as_nanos() as u64
    }
}

/// A clock for tests: each reading is `step` nanoseconds after the previous one.
#[derive(Debug)]
pub struct FakeClock {
    step: u64,
    time: AtomicU64,
}

impl FakeClock {
    /// A clock at 0 that advances `step` nanoseconds a reading.
    pub fn new(step: u64) -> FakeClock {
        FakeClock {
            step,
            time: AtomicU64::new(0),
        }
    }
}

impl Clock for FakeClock {
    fn now(&self) -> u64 {
        self.time.fetch_add(self.step, Ordering::Relaxed)
    }
}

/// Nanoseconds of a [`Clock`] as seconds.
pub(super) fn seconds(nanos: u64) -> f64 {
    nanos as f64 / 1e9
}
