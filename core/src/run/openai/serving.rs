//! Who serves a call, as OpenTelemetry's GenAI conventions name it: the provider (a well-known
//! `gen_ai.provider.name`, found from the server's host, else from a `vendor/model` name), the
//! model asked, and the server's address and port. What the response adds (its model, id and
//! finish reason) comes with the [`Completion`](super::Completion).

use crate::run::action::Served;

/// Hosts of the providers with a well-known name (suffixes match subdomains).
const HOSTS: &[(&str, &str)] = &[
    ("api.openai.com", "openai"),
    ("openai.azure.com", "azure.ai.openai"),
    ("services.ai.azure.com", "azure.ai.inference"),
    ("models.inference.ai.azure.com", "azure.ai.inference"),
    ("api.anthropic.com", "anthropic"),
    ("generativelanguage.googleapis.com", "gcp.gemini"),
    ("aiplatform.googleapis.com", "gcp.vertex_ai"),
    ("amazonaws.com", "aws.bedrock"),
    ("api.groq.com", "groq"),
    ("api.mistral.ai", "mistral_ai"),
    ("api.deepseek.com", "deepseek"),
    ("api.x.ai", "x_ai"),
    ("api.perplexity.ai", "perplexity"),
    ("api.cohere.com", "cohere"),
    ("api.cohere.ai", "cohere"),
    ("api.moonshot.ai", "moonshot_ai"),
    ("api.moonshot.cn", "moonshot_ai"),
];

/// Model-name prefixes (`google/gemini-pro`) of the providers with a well-known name.
const VENDORS: &[(&str, &str)] = &[
    ("openai", "openai"),
    ("azure", "azure.ai.openai"),
    ("anthropic", "anthropic"),
    ("google", "gcp.gemini"),
    ("gemini", "gcp.gemini"),
    ("vertex", "gcp.vertex_ai"),
    ("vertex_ai", "gcp.vertex_ai"),
    ("bedrock", "aws.bedrock"),
    ("aws", "aws.bedrock"),
    ("groq", "groq"),
    ("mistral", "mistral_ai"),
    ("mistralai", "mistral_ai"),
    ("deepseek", "deepseek"),
    ("xai", "x_ai"),
    ("x-ai", "x_ai"),
    ("perplexity", "perplexity"),
    ("cohere", "cohere"),
    ("moonshot", "moonshot_ai"),
    ("moonshotai", "moonshot_ai"),
];

/// The provider a server's host names: a well-known value, `ollama` for Ollama's port, else
/// none.
pub fn provider_of_host(host: &str, port: Option<u16>) -> Option<String> {
    let host = host.to_ascii_lowercase();
    let known = HOSTS
        .iter()
        .find(|(suffix, _)| host == *suffix || host.ends_with(&format!(".{suffix}")))
        .map(|(_, name)| (*name).to_owned());
    known.or_else(|| (port == Some(11434)).then(|| "ollama".to_owned()))
}

/// The provider a `vendor/model` name names: a well-known value, else the vendor as written
/// (a custom value, as the conventions allow); none without a vendor.
pub fn provider_of_model(model: &str) -> Option<String> {
    let (vendor, _) = model.split_once('/')?;
    let vendor = vendor.to_ascii_lowercase();
    Some(
        VENDORS
            .iter()
            .find(|(prefix, _)| *prefix == vendor)
            .map_or(vendor.clone(), |(_, name)| (*name).to_owned()),
    )
}

/// The host and port of an `http(s)://host[:port]/...` URL (the scheme's port when none).
fn host_port(base_url: &str) -> Option<(String, Option<u16>)> {
    let (scheme, rest) = base_url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit('@').next()?;
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(']') || authority.starts_with('[') => {
            (host, port.parse().ok())
        }
        _ => (authority, None),
    };
    let default = match scheme.to_ascii_lowercase().as_str() {
        "https" => Some(443),
        "http" => Some(80),
        _ => None,
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    (!host.is_empty()).then(|| (host.to_owned(), port.or(default)))
}

/// What the driver knows of a call to `model` at `base_url` before its answer.
pub fn serving(model: &str, base_url: &str) -> Served {
    let (host, port) = host_port(base_url).unzip();
    let port = port.flatten();
    let provider = host
        .as_deref()
        .and_then(|h| provider_of_host(h, port))
        .or_else(|| provider_of_model(model));
    Served {
        provider,
        request_model: Some(model.to_owned()),
        server_address: host,
        server_port: port,
        ..Served::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_provider_comes_from_the_host_else_the_vendor_prefix() {
        let served = serving("gpt-4o-mini", "https://api.openai.com/v1");
        assert_eq!(
            served,
            Served {
                provider: Some("openai".into()),
                request_model: Some("gpt-4o-mini".into()),
                server_address: Some("api.openai.com".into()),
                server_port: Some(443),
                ..Served::default()
            }
        );
        let gemini = serving(
            "gemini-2.0-flash",
            "https://generativelanguage.googleapis.com/v1beta/openai/",
        );
        assert_eq!(gemini.provider.as_deref(), Some("gcp.gemini"));
        let ollama = serving("llama3.2", "http://127.0.0.1:11434/v1");
        assert_eq!(
            (ollama.provider.as_deref(), ollama.server_port),
            (Some("ollama"), Some(11434))
        );
        let routed = serving("anthropic/claude-3-haiku", "http://localhost:8080/v1");
        assert_eq!(routed.provider.as_deref(), Some("anthropic"));
        assert_eq!(
            provider_of_model("google/gemini-pro").as_deref(),
            Some("gcp.gemini")
        );
        assert_eq!(provider_of_model("acme/model").as_deref(), Some("acme"));
        assert_eq!(provider_of_model("gpt-4"), None);
        assert_eq!(serving("m", "not a url").server_address, None);
    }
}
