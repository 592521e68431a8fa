//! Bounds on untrusted input: every stage that could be made to do unbounded work checks one,
//! and how sizes are told to people.

use crate::diagnostic::Diagnostic;
use crate::source::Span;

const MIB: u64 = 1024 * 1024;

/// Resource limits for parsing and evaluating untrusted documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted file, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of YAML collections.
    pub max_depth: usize,
    /// Most YAML nodes a document may produce, counting every node an alias expands to.
    pub max_nodes: usize,
}

/// The most bytes parsing reads, whatever `max_bytes` says: a tree's offsets are 32-bit
/// ([`crate::yaml::Node::span`]), so a larger text would have ranges that do not fit.
pub const MAX_PARSED_BYTES: usize = u32::MAX as usize - 1;

impl Limits {
    /// The size bound parsing applies: `max_bytes`, and never more than [`MAX_PARSED_BYTES`].
    pub fn parsed_bytes(&self) -> usize {
        self.max_bytes.min(MAX_PARSED_BYTES)
    }

    /// The bounds every caller uses unless told otherwise: 8 MiB, 64 levels, 250,000 nodes.
    pub const DEFAULT: Limits = Limits {
        max_bytes: 8 * 1024 * 1024,
        max_depth: 64,
        max_nodes: 250_000,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// A size for people: bytes below 1 MiB, else MiB with one decimal, rounded up so that a size
/// over a limit never prints as the limit itself ("8.1 MiB", not "8.0 MiB", for 8 MiB + 1 byte).
pub fn format_size(bytes: u64) -> String {
    match bytes {
        1 => "1 byte".to_owned(),
        b if b < MIB => format!("{b} bytes"),
        b => {
            let tenths = (u128::from(b) * 10).div_ceil(u128::from(MIB));
            format!("{}.{} MiB", tenths / 10, tenths % 10)
        }
    }
}

/// A limit for people: a whole number of MiB without decimals ("8 MiB"), else as [`format_size`].
pub fn format_limit(bytes: usize) -> String {
    let bytes = bytes as u64;
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else {
        format_size(bytes)
    }
}

/// "9.0 MiB, over the 8 MiB limit"; without the size when only a bounded prefix was read and the
/// true size is unknown.
pub fn over_limit(size: Option<u64>, limit: usize) -> String {
    match size {
        Some(size) => format!(
            "{}, over the {} limit",
            format_size(size),
            format_limit(limit)
        ),
        None => format!("over the {} limit", format_limit(limit)),
    }
}

/// The `input-too-large` error, at the start of the file.
pub fn input_too_large(size: Option<u64>, limit: usize) -> Diagnostic {
    let mut diagnostic = Diagnostic::error(
        "input-too-large",
        format!("the file is {}", over_limit(size, limit)),
    );
    diagnostic.line = 1;
    diagnostic.column = 1;
    diagnostic.span = Some(Span::empty(0));
    diagnostic
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_print_in_mib_with_one_decimal_when_large() {
        let table = [
            (0, "0 bytes"),
            (1, "1 byte"),
            (4_097, "4097 bytes"),
            (MIB - 1, "1048575 bytes"),
            (MIB, "1.0 MiB"),
            (9 * MIB, "9.0 MiB"),
            (9 * MIB + MIB / 2, "9.5 MiB"),
            // Rounded up: a size over a limit never prints as the limit.
            (8 * MIB + 1, "8.1 MiB"),
            (20 * MIB + 3, "20.1 MiB"),
            (u64::MAX, "17592186044416.0 MiB"),
        ];
        for (bytes, shown) in table {
            assert_eq!(format_size(bytes), shown, "{bytes}");
        }
    }

    /// A tree's offsets are 32-bit: a raised `max_bytes` never lets a text parse whose ranges
    /// would not fit.
    #[test]
    fn parsing_never_reads_4_gib_whatever_the_limit_says() {
        let raised = Limits {
            max_bytes: usize::MAX,
            ..Limits::DEFAULT
        };
        assert_eq!(raised.parsed_bytes(), MAX_PARSED_BYTES);
        assert!(
            u32::try_from(MAX_PARSED_BYTES + 1).is_ok(),
            "an end offset fits"
        );
        assert_eq!(Limits::DEFAULT.parsed_bytes(), Limits::DEFAULT.max_bytes);
    }

    #[test]
    fn limits_print_whole_when_they_are_whole() {
        let mib = MIB as usize;
        assert_eq!(format_limit(8 * mib), "8 MiB");
        assert_eq!(format_limit(mib), "1 MiB");
        assert_eq!(format_limit(4096), "4096 bytes");
        assert_eq!(format_limit(mib + mib / 2), "1.5 MiB");
    }

    #[test]
    fn over_the_limit_says_the_size_when_known() {
        let limit = Limits::DEFAULT.max_bytes;
        assert_eq!(
            over_limit(Some(9 * MIB), limit),
            "9.0 MiB, over the 8 MiB limit"
        );
        assert_eq!(over_limit(None, limit), "over the 8 MiB limit");
    }
}
