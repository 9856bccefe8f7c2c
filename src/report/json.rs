//! The JSON report: the whole [`Report`] (run info and a `datasets` array), pretty-printed.

use super::{Exporter, Report, ReportError};

/// Writes the report as JSON.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn serialize(&self, report: &Report) -> Result<Vec<u8>, ReportError> {
        let mut out = serde_json::to_vec_pretty(report)?;
        out.push(b'\n');
        Ok(out)
    }
}
