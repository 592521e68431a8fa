//! One module per subcommand.

mod each_file;
pub mod lint;
pub mod validate;
