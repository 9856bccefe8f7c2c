//! Ratings counted by Sudoku Explainer's bands (below 6.5, 6.5 to 7.9, 8.0 and up), with the
//! ratings known only from below and the hardest one: what `rate` and `check --rate` summarise,
//! on stderr and in their `--stats` JSON, and what `merge-stats` adds up.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rate::{End, NESTED, Rating, tenths};

/// Counts of ratings, as the `--stats` JSON writes them (flat keys, so that `rate`'s summary
/// keeps them at its top level).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingCounts {
    /// Puzzles rated: the bands, `above_max_er` and `nested` added up.
    pub rated: u64,
    /// Exact ratings below 6.5.
    #[serde(rename = "er_below_6_5")]
    pub below_6_5: u64,
    /// Exact ratings from 6.5 to 7.9.
    #[serde(rename = "er_6_5_to_7_9")]
    pub from_6_5_to_7_9: u64,
    /// Exact ratings of 8.0 and up.
    #[serde(rename = "er_8_0_and_up")]
    pub from_8_0: u64,
    /// Ratings known only to lie above a `--max-er` bound.
    pub above_max_er: u64,
    /// Paths stuck with every technique tried, nested forcing chains of every level included
    /// (Explainer's 20.0; no puzzle with one solution is known to get there): ER 9.5 or above,
    /// not exact.
    #[serde(rename = "er_9_5_or_above_not_rated_exactly")]
    pub nested: u64,
    /// The highest exact ER and its technique (the first one met, in the order counted).
    pub hardest: Option<Hardest>,
}

/// The highest exact rating of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hardest {
    /// ER in tenths, written with one decimal (`"7.2"`).
    #[serde(with = "tenths_text")]
    pub er: u32,
    /// The technique that reached it.
    pub technique: String,
}

impl RatingCounts {
    /// Counts one rating.
    pub fn add(&mut self, r: &Rating) {
        self.rated += 1;
        match r.end {
            End::Above => self.above_max_er += 1,
            End::Stuck => self.nested += 1,
            End::Solved => {
                let er = tenths(r.er);
                *match er {
                    ..65 => &mut self.below_6_5,
                    65..80 => &mut self.from_6_5_to_7_9,
                    _ => &mut self.from_8_0,
                } += 1;
                if self.hardest.as_ref().is_none_or(|h| er > h.er) {
                    let technique = r.hardest.map(|t| t.name()).unwrap_or_default();
                    self.hardest = Some(Hardest { er, technique });
                }
            }
        }
    }

    /// Adds the counts of another run (made beside this one): the hardest is the higher, this
    /// run's on a tie.
    pub fn merge(&mut self, other: &RatingCounts) {
        self.rated += other.rated;
        self.below_6_5 += other.below_6_5;
        self.from_6_5_to_7_9 += other.from_6_5_to_7_9;
        self.from_8_0 += other.from_8_0;
        self.above_max_er += other.above_max_er;
        self.nested += other.nested;
        if let Some(h) = &other.hardest {
            if self.hardest.as_ref().is_none_or(|mine| h.er > mine.er) {
                self.hardest = Some(h.clone());
            }
        }
    }

    /// The summary line, `rated: 300 (ER below 6.5: 120, 6.5 to 7.9: 150, 8.0 and up: 30);
    /// hardest 8.9 (Dynamic Forcing Chains)`; with the `--max-er` bound (tenths) the ratings
    /// above it are counted too, and the paths stuck with every technique tried when there are
    /// some.
    pub fn line(&self, max_er: Option<u32>) -> String {
        let mut text = format!(
            "rated:      {} (ER below 6.5: {}, 6.5 to 7.9: {}, 8.0 and up: {}",
            self.rated, self.below_6_5, self.from_6_5_to_7_9, self.from_8_0
        );
        if let Some(bound) = max_er {
            text += &format!("; above {}: {}", Tenths(bound), self.above_max_er);
        }
        if self.nested > 0 {
            text += &format!(
                "; stuck, every technique tried (Explainer's 20.0, written >{}): {}",
                Tenths(NESTED - 1),
                self.nested
            );
        }
        text += ")";
        if let Some(h) = &self.hardest {
            // with ratings known only from below, the hardest exact one is not the run's hardest
            let exact = match self.above_max_er + self.nested {
                0 => "",
                _ => " rated exactly",
            };
            text += &format!("; hardest{exact} {} ({})", Tenths(h.er), h.technique);
        }
        text
    }
}

/// A rating from 0 to 20 with at most one decimal (`7.2`, `7`), in tenths: `--max-er`'s text.
pub fn parse_tenths(text: &str) -> Result<u32, String> {
    let bad = || {
        format!(
            "expected a rating from 0 to 20 with at most one decimal, such as 7.2, not {text:?}"
        )
    };
    let (whole, frac) = text.trim().split_once('.').unwrap_or((text.trim(), "0"));
    let whole: u32 = whole.parse().map_err(|_| bad())?;
    let frac: u32 = match frac.len() {
        1 => frac.parse().map_err(|_| bad())?,
        _ => return Err(bad()),
    };
    let tenths = whole * 10 + frac;
    if tenths > 200 {
        return Err(bad());
    }
    Ok(tenths)
}

/// A difficulty in tenths shown with one decimal: `72` as `7.2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tenths(pub u32);

impl fmt::Display for Tenths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// Tenths as JSON text with one decimal (`"7.2"`), as `rate --stats` has always written them.
mod tenths_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(t: &u32, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&super::Tenths(*t))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        let text = String::deserialize(d)?;
        let bad = || serde::de::Error::custom(format!("{text:?} is not a rating such as 7.2"));
        let (whole, frac) = text.split_once('.').ok_or_else(bad)?;
        match (whole.parse::<u32>(), frac.parse::<u32>()) {
            (Ok(w), Ok(f)) if frac.len() == 1 => Ok(w * 10 + f),
            _ => Err(bad()),
        }
    }
}

/// An optional [`tenths_text`] (`null` for none), for the `--max-er` bound in summaries.
pub mod bound_text {
    use serde::{Deserialize, Deserializer, Serializer};

    /// `"7.2"`, or `null`.
    pub fn serialize<S: Serializer>(t: &Option<u32>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => super::tenths_text::serialize(t, s),
            None => s.serialize_none(),
        }
    }

    /// The inverse of [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        #[derive(Deserialize)]
        struct Text(#[serde(with = "super::tenths_text")] u32);
        Ok(Option::<Text>::deserialize(d)?.map(|t| t.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::{Options, rate};

    /// Rates the puzzle with the bound (tenths).
    fn rating(puzzle: &str, max_er: Option<u32>) -> Rating {
        let options = Options {
            max_er,
            explain: false,
        };
        rate(&puzzle.parse().unwrap(), &options).unwrap()
    }

    use crate::output::tests::PUZZLE as EASY;

    #[test]
    fn counts_by_band_and_merges_to_the_sum() {
        let easy = rating(EASY, None);
        let above = rating(EASY, Some(10));
        assert_eq!(above.end, End::Above);
        let mut a = RatingCounts::default();
        a.add(&easy);
        a.add(&above);
        assert_eq!((a.rated, a.below_6_5, a.above_max_er), (2, 1, 1));
        let h = a.hardest.clone().unwrap();
        assert_eq!(h.er, tenths(easy.er));
        let mut b = RatingCounts::default();
        b.add(&easy);
        b.merge(&a);
        assert_eq!((b.rated, b.below_6_5, b.above_max_er), (3, 2, 1));
        assert_eq!(b.hardest, Some(h));
        // beside ratings above the bound, the hardest exact one is said to be that
        let line = a.line(Some(10));
        assert!(
            line.contains("above 1.0: 1); hardest rated exactly "),
            "{line}"
        );
        let mut c = RatingCounts::default();
        c.add(&easy);
        assert!(c.line(None).contains("); hardest "), "{}", c.line(None));
    }

    #[test]
    fn json_keeps_rates_keys_and_reads_back() {
        let mut a = RatingCounts::default();
        a.add(&rating(EASY, None));
        let json = serde_json::to_value(&a).unwrap();
        for key in [
            "rated",
            "er_below_6_5",
            "er_6_5_to_7_9",
            "er_8_0_and_up",
            "above_max_er",
            "er_9_5_or_above_not_rated_exactly",
        ] {
            assert!(json[key].is_u64(), "{key}: {json}");
        }
        let er = json["hardest"]["er"].as_str().unwrap();
        assert_eq!(er, Tenths(a.hardest.as_ref().unwrap().er).to_string());
        assert_eq!(serde_json::from_value::<RatingCounts>(json).unwrap(), a);
    }
}
