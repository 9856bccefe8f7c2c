//! CLI integration tests (one binary).
