//! What the benchmark binaries share.

use std::path::Path;

use sudoku_batch::grid::Grid;

/// Puzzles of a file: per line, the first 81-character field of digits, `.` or `_`; `#` lines and
/// headers skipped. A missing file gives none.
pub fn load(path: &Path) -> Vec<Grid> {
    let Ok(text) = std::fs::read(path) else {
        return Vec::new();
    };
    text.split(|&b| b == b'\n')
        .filter(|line| line.first() != Some(&b'#'))
        .filter_map(|line| {
            line.split(|b| b" \t,;:\r".contains(b))
                .find(|f| f.len() == 81)
                .and_then(|f| Grid::parse(f).ok())
        })
        .collect()
}
