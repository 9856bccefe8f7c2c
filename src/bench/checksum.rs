//! The checksum of a run's answers: FNV-1a 64 of what `solve -O line` would print, so that equal
//! checksums mean equal answers, across machines, versions and solvers.

use crate::status::Answer;

/// FNV-1a 64 of the line output of `answers`, as 16 hex digits.
pub fn checksum(answers: &[Answer]) -> String {
    let mut hash = Fnv1a::default();
    for answer in answers {
        match answer.solution {
            Some(solution) if answer.status.is_solved() => hash.write(&solution.to_line(b'0')),
            _ => hash.write(answer.status.as_str().as_bytes()),
        }
        hash.write(b"\n");
    }
    format!("{:016x}", hash.0)
}

/// The 64-bit FNV-1a hash: simple, stable across machines and versions.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::tests::easy;
    use crate::solver;
    use crate::status::Status;

    #[test]
    fn checksum_is_fnv1a_of_the_line_output() {
        let puzzle = easy();
        let solution = solver::solve(&puzzle, 1).unwrap().solution.unwrap();
        let answers = [
            Answer {
                status: Status::Solved,
                solution: Some(solution),
                guesses: 0,
                nanos: 0,
            },
            Answer::malformed(),
        ];
        let mut text = String::from_utf8(solution.to_line(b'0').to_vec()).unwrap();
        text.push_str("\nmalformed\n");
        // FNV-1a 64 written out plainly
        let mut h: u64 = 0xcbf29ce484222325;
        for b in text.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
        assert_eq!(checksum(&answers), format!("{h:016x}"));
        // the empty input hashes to the offset basis
        assert_eq!(checksum(&[]), "cbf29ce484222325");
    }
}
