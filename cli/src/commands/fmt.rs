//! `logicmd fmt PATH... [--check]`: canonical order and indentation, every comment kept.

use logicmd::analysis::{detect, Kind};
use logicmd::format::format;

use crate::discover;
use crate::{EXIT_INVALID, EXIT_USAGE};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    operands: discover::Operands,
    /// Report files that would change; change nothing (exit 1 if any would).
    #[arg(long)]
    check: bool,
}

pub fn run(args: &Args) -> u8 {
    let discovered = match crate::config::discover(&args.operands) {
        Ok(discovered) => discovered,
        Err(status) => return status,
    };
    let mut status = discovered.status();
    for path in discovered.files {
        let name = super::each_file::display_name(&path);
        let stdin = path.as_os_str() == "-";
        let (text, tail) = match super::read_document_text(&path) {
            Ok(read) => read,
            Err(code) => {
                status = status.max(code);
                continue;
            }
        };
        // Standard input goes on to standard output whatever happens: a pipeline keeps the
        // text (and a body past the bound, copied on as it is read).
        let echo = |written: &str| {
            print!("{written}");
            if let Some(tail) = &tail {
                let mut out = std::io::stdout().lock();
                if let Err(error) = crate::input::copy_tail(&path, tail, &mut out) {
                    eprintln!("error: cannot copy the rest of {name}: {error}");
                }
            }
        };
        let shown = (!stdin).then(|| path.to_string_lossy());
        if detect(&text, shown.as_deref()) == Kind::Drtl {
            // The formatter knows LOGIC.md's canonical order; DRTL has none defined yet.
            eprintln!("note: {name}: DRTL topologies are not formatted; left as is");
            if stdin {
                echo(&text);
            }
            continue;
        }
        match format(&text) {
            Ok(formatted) if stdin && !args.check => echo(&formatted),
            Ok(formatted) if formatted == text => {}
            Ok(_) if args.check => {
                println!("would reformat {name}");
                status = status.max(EXIT_INVALID);
            }
            Ok(formatted) => match crate::input::write_document(&path, &formatted, tail.as_ref()) {
                Ok(()) => println!("formatted {name}"),
                Err(error) => {
                    eprintln!("error: cannot write {name}: {error}");
                    status = EXIT_USAGE;
                }
            },
            Err(diagnostic) => {
                eprintln!("{}", crate::output::human(&name, &text, &[diagnostic]));
                if stdin && !args.check {
                    echo(&text);
                }
                status = status.max(EXIT_INVALID);
            }
        }
    }
    status
}
