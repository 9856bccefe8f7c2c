//! Hints as data: which technique, how hard (on Sudoku Explainer's scale), the cell it places if
//! any, and the candidates it removes. The same values feed the rating, `--explain` and the tests.

use std::fmt;
use std::ops::ControlFlow;

use super::board::{Board, Digits, Kind, digits_of};
use crate::grid::cell_name;

/// A solving technique, with what its name and difficulty depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Technique {
    /// The only place left for a digit in a house (`alone`: the house's last blank cell).
    HiddenSingle {
        /// The kind of house.
        kind: Kind,
        /// The cell is the last blank one of its house.
        alone: bool,
    },
    /// A block's digit confined to a line, the removal leaving a hidden single.
    DirectPointing,
    /// A line's digit confined to a block, the removal leaving a hidden single.
    DirectClaiming,
    /// A hidden pair or triplet whose removals leave a hidden single (size 2 or 3).
    DirectHiddenSet(u8),
    /// The only candidate left in a cell.
    NakedSingle,
    /// A block's digit confined to one line: removed from the rest of the line.
    Pointing,
    /// A line's digit confined to one block: removed from the rest of the block.
    Claiming,
    /// The cells that see every place of a digit in a house lose it.
    GeneralizedIntersection,
    /// N cells of a house with N candidates between them (size 2..4).
    NakedSet(u8),
    /// N digits of a house confined to N cells (size 2..4).
    HiddenSet(u8),
    /// X-Wing (2), Swordfish (3), Jellyfish (4).
    Fish(u8),
    /// Three bivalue cells, a pivot and two pincers.
    XyWing,
    /// A trivalue pivot and two bivalue pincers.
    XyzWing,
    /// A unique rectangle (4 cells) or loop (6 or more), of type 1..4.
    UniqueLoop {
        /// Cells in the loop.
        len: u8,
        /// Type 1..4.
        kind: u8,
        /// Type 3 only: the naked (`false`) or hidden (`true`) set joined, and its size.
        set: Option<(bool, u8)>,
    },
    /// Bivalue universal grave, type 1..4.
    Bug(u8),
    /// Aligned pair (2) or triplet (3) exclusion.
    AlignedExclusion(u8),
    /// A bidirectional cycle (`x`: along houses, `y`: inside cells; both: a mixed cycle).
    Cycle {
        /// Uses links along houses.
        x: bool,
        /// Uses links inside cells.
        y: bool,
        /// A pure X-cycle of four cells (what Explainer names a generalized X-Wing).
        four: bool,
    },
    /// A forcing chain from a candidate to its own negation.
    ForcingChain {
        /// Uses links along houses.
        x: bool,
        /// Uses links inside cells.
        y: bool,
        /// A pure X-chain of six nodes (what Explainer names a turbot fish).
        turbot: bool,
    },
    /// A chain over the whole grid (Explainer's multiple, dynamic and nested chains).
    Chains(Chains),
}

/// The multiple / dynamic / nested forcing chains: which shape and which engine found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chains {
    /// How the chains meet.
    pub shape: Shape,
    /// 0 plain, or the nesting level 1..=5 of dynamic chains (Explainer's `(+)`, `(+ Forcing
    /// Chains)`, ...).
    pub level: u8,
    /// Dynamic chains (candidates removed along the way count).
    pub dynamic: bool,
    /// Nishio chains.
    pub nishio: bool,
}

/// How forcing chains meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Every candidate of a cell leads to the same conclusion.
    Cell,
    /// Every place of a digit in a house leads to the same conclusion.
    Region,
    /// A candidate on and off lead to the same conclusion.
    Double,
    /// A candidate (on or off) leads to a contradiction.
    Contradiction,
}

impl Technique {
    /// Explainer's name for the technique.
    pub fn name(&self) -> String {
        const SETS: [&str; 5] = ["", "", "Pair", "Triplet", "Quad"];
        match *self {
            Technique::HiddenSingle { .. } => "Hidden Single".into(),
            Technique::DirectPointing => "Direct Pointing".into(),
            Technique::DirectClaiming => "Direct Claiming".into(),
            Technique::DirectHiddenSet(n) => format!("Direct Hidden {}", SETS[n as usize]),
            Technique::NakedSingle => "Naked Single".into(),
            Technique::Pointing => "Pointing".into(),
            Technique::Claiming => "Claiming".into(),
            Technique::GeneralizedIntersection => "Generalized Intersection".into(),
            Technique::NakedSet(n) => format!("Naked {}", SETS[n as usize]),
            Technique::HiddenSet(n) => format!("Hidden {}", SETS[n as usize]),
            Technique::Fish(2) => "X-Wing".into(),
            Technique::Fish(3) => "Swordfish".into(),
            Technique::Fish(_) => "Jellyfish".into(),
            Technique::XyWing => "XY-Wing".into(),
            Technique::XyzWing => "XYZ-Wing".into(),
            Technique::UniqueLoop { len, kind, set } => {
                let shape = if len == 4 { "Rectangle" } else { "Loop" };
                let size = if len > 6 {
                    format!(" {len}")
                } else {
                    String::new()
                };
                let extra = match set {
                    Some((hidden, n)) => format!(
                        " (w/{} {})",
                        if hidden { "Hidden" } else { "Naked" },
                        SETS.get(n as usize).unwrap_or(&"Set")
                    ),
                    None => String::new(),
                };
                format!("Unique {shape}{size} type {kind}{extra}")
            }
            Technique::Bug(t) => format!("BUG type {t}"),
            Technique::AlignedExclusion(2) => "Aligned Pair Exclusion".into(),
            Technique::AlignedExclusion(_) => "Aligned Triplet Exclusion".into(),
            Technique::Cycle { x, y, four } => match (x, y) {
                (true, true) => "Bidirectional Cycle".into(),
                (false, _) => "Bidirectional Y-Cycle".into(),
                (true, false) if four => "Generalized X-Wing".into(),
                (true, false) => "Bidirectional X-Cycle".into(),
            },
            Technique::ForcingChain { x, y, turbot } => match (x, y) {
                (true, true) => "Forcing Chain".into(),
                (false, _) => "Forcing Y-Chain".into(),
                (true, false) if turbot => "Turbot Fish".into(),
                (true, false) => "Forcing X-Chain".into(),
            },
            Technique::Chains(c) => c.name(),
        }
    }
}

impl Chains {
    fn name(&self) -> String {
        let prefix = if self.level > 0 || (self.dynamic && !self.nishio) {
            "Dynamic "
        } else if self.nishio {
            "Nishio "
        } else {
            ""
        };
        let shape = match (self.shape, self.nishio) {
            (_, true) => "Forcing",
            (Shape::Cell, _) => "Cell Forcing",
            (Shape::Region, _) => "Region Forcing",
            (Shape::Double, _) => "Double Forcing",
            (Shape::Contradiction, _) => "Contradiction Forcing",
        };
        format!("{prefix}{shape} Chains{}", nested_suffix(self.level))
    }
}

/// Explainer's suffix naming the nested level of dynamic chains.
fn nested_suffix(level: u8) -> String {
    match level {
        0 => String::new(),
        1 => " (+)".into(),
        2 => " (+ Forcing Chains)".into(),
        3 => " (+ Multiple Forcing Chains)".into(),
        4 => " (+ Dynamic Forcing Chains)".into(),
        _ => format!(" (+ Dynamic Forcing Chains{})", nested_suffix(level - 3)),
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// One step of a solving path.
#[derive(Debug, Clone, PartialEq)]
pub struct Hint {
    /// What found it.
    pub technique: Technique,
    /// Its difficulty, computed in the same floating-point steps as Explainer (whose sums such as
    /// 4.5 + 0.1 + 0.2 decide ties when hints are sorted).
    pub difficulty: f64,
    /// The cell it fills and the digit, if any: a step places at most one digit, and only the
    /// direct techniques and the chains that prove a digit do.
    pub placement: Option<(u8, u8)>,
    /// The candidates it removes: cells with the digits they lose, in cell order.
    pub eliminations: Vec<(u8, Digits)>,
}

impl Hint {
    /// A hint that removes candidates only. `eliminations` may come in any order.
    pub fn eliminate(
        technique: Technique,
        difficulty: f64,
        eliminations: Vec<(u8, Digits)>,
    ) -> Hint {
        let mut hint = Hint {
            technique,
            difficulty,
            placement: None,
            eliminations,
        };
        hint.eliminations.sort_unstable_by_key(|&(c, _)| c);
        hint
    }

    /// Removes the hint's candidates from `board`, then places its digit (Explainer's order).
    pub fn apply(&self, board: &mut Board) {
        for &(cell, digits) in &self.eliminations {
            board.remove(cell as usize, digits);
        }
        if let Some((cell, digit)) = self.placement {
            board.place(cell as usize, digit);
        }
    }

    /// The difficulty in tenths, rounded as Explainer prints it.
    pub fn tenths(&self) -> u32 {
        tenths(self.difficulty)
    }

    /// Candidates removed, counted one by one.
    pub fn removed(&self) -> u32 {
        self.eliminations.iter().map(|&(_, d)| d.count_ones()).sum()
    }
}

/// A difficulty in tenths, rounded as Explainer prints it (`(int)((d + 0.05) * 10)`).
pub fn tenths(difficulty: f64) -> u32 {
    ((difficulty + 0.05) * 10.0) as u32
}

impl fmt::Display for Hint {
    /// `7.1 Forcing X-Chain: r1c2=5; -r3c4<>1,2 ...`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.tenths();
        write!(f, "{}.{} {}", t / 10, t % 10, self.technique)?;
        if let Some((cell, digit)) = self.placement {
            write!(f, ": {}={digit}", cell_name(cell as usize))?;
        }
        for (i, &(cell, digits)) in self.eliminations.iter().enumerate() {
            let sep = if i == 0 { ";" } else { "," };
            let ds: Vec<String> = digits_of(digits).map(|d| d.to_string()).collect();
            write!(f, "{sep} {}<>{}", cell_name(cell as usize), ds.join(","))?;
        }
        Ok(())
    }
}

/// Where a technique sends the hints it finds, in the order it finds them; `Break` stops the
/// search (the stepper wants only the first, the tests want them all).
pub type Sink<'a> = &'a mut dyn FnMut(Hint) -> ControlFlow<()>;
