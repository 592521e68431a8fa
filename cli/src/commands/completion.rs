//! `logicmd completion SHELL` and `logicmd man`: generated from the same clap model that parses
//! the command line, so they cannot disagree with it.

use std::path::PathBuf;

use clap_complete::Shell;

use crate::{EXIT_OK, EXIT_USAGE};

#[derive(clap::Args)]
#[command(after_help = "Install, for example:
  logicmd completion bash > ~/.local/share/bash-completion/completions/logicmd
  logicmd completion zsh > \"${fpath[1]}/_logicmd\"
  logicmd completion fish > ~/.config/fish/completions/logicmd.fish
  logicmd completion powershell >> $PROFILE
  logicmd completion elvish >> ~/.config/elvish/rc.elv")]
pub struct CompletionArgs {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    shell: Shell,
}

#[derive(clap::Args)]
pub struct ManArgs {
    /// Write one page per command (logicmd.1, logicmd-lint.1, ...) into DIR instead of printing
    /// the main page.
    #[arg(long, value_name = "DIR")]
    output: Option<PathBuf>,
}

/// Prints the completion script for `args.shell`.
pub fn completion(args: &CompletionArgs, mut command: clap::Command) -> u8 {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "logicmd", &mut out);
    print!("{}", String::from_utf8_lossy(&out));
    EXIT_OK
}

/// Prints the main manual page, or writes every command's page into a directory.
pub fn man(args: &ManArgs, command: clap::Command) -> u8 {
    let Some(dir) = &args.output else {
        let mut out = Vec::new();
        if let Err(error) = clap_mangen::Man::new(command).render(&mut out) {
            eprintln!("error: cannot render the manual page: {error}");
            return EXIT_USAGE;
        }
        print!("{}", String::from_utf8_lossy(&out));
        return EXIT_OK;
    };
    let written =
        std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(command, dir));
    match written {
        Ok(()) => {
            eprintln!("wrote the manual pages to {}", dir.display());
            EXIT_OK
        }
        Err(error) => {
            eprintln!(
                "error: cannot write the manual pages to {}: {error}",
                dir.display()
            );
            EXIT_USAGE
        }
    }
}
