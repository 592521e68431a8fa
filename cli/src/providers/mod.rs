//! Providers that carry out a run's model calls over the network. The protocol is core's
//! (`logicmd::run::openai`); here are the transport and the settings.

pub mod openai;
pub mod settings;

pub use openai::OpenAiProvider;
pub use settings::Settings;
// The tests (cli/tests/openai) build providers from resolved settings directly.
#[allow(unused_imports)]
pub use settings::Resolved;
