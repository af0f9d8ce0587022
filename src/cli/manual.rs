//! `cagey completions SHELL` and `cagey man DIR`: shell completions and man
//! pages, generated from the same clap command line that parses the flags.

use std::io::Write;

use clap::CommandFactory;

use super::args::{Cli, CompletionsArgs, ManArgs};
use super::exit::{Answer, RunError};
use super::input::CliError;

pub fn completions(args: &CompletionsArgs, out: &mut dyn Write) -> Result<Answer, RunError> {
    clap_complete::generate(args.shell, &mut Cli::command(), "cagey", out);
    Ok(Answer::Positive)
}

/// Writes `cagey.1` and a page for each command (`cagey-solve.1`, …) into
/// the directory, and names each file written.
pub fn man(args: &ManArgs, out: &mut dyn Write) -> Result<Answer, RunError> {
    let failed = |error| CliError::Write { path: args.dir.clone(), error };
    std::fs::create_dir_all(&args.dir).map_err(failed)?;
    let command = Cli::command();
    let mut pages = vec![("cagey".to_string(), command.clone())];
    for sub in command.get_subcommands().filter(|c| c.get_name() != "help") {
        let name = format!("cagey-{}", sub.get_name());
        let page = sub.clone().display_name(name.clone()).bin_name(format!("cagey {}", sub.get_name()));
        pages.push((name, page));
    }
    for (name, page) in pages {
        let path = args.dir.join(format!("{name}.1"));
        let mut text = Vec::new();
        clap_mangen::Man::new(page).render(&mut text).map_err(failed)?;
        std::fs::write(&path, text).map_err(|error| CliError::Write { path: path.clone(), error })?;
        writeln!(out, "{}", path.display())?;
    }
    Ok(Answer::Positive)
}
