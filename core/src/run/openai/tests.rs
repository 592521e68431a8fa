//! The protocol as a whole: the bodies sent for each kind of request (insta snapshots of the
//! whole JSON), the model chosen, the headers, and the once-only fallback when a server refuses
//! `response_format`.

use serde_json::{json, Value};

use super::*;
use crate::run::action::{Message, ModelRequest};

fn action(node: &str, request: ModelRequest) -> Action {
    Action {
        id: "a1".into(),
        kind: ActionKind::CallModel {
            node: node.into(),
            attempt: 1,
            request,
            timeout_ms: None,
        },
    }
}

fn request(schema: Option<Value>) -> ModelRequest {
    ModelRequest {
        system: "## Step: gather\n\nFind sources.".into(),
        messages: vec![Message::user("Topic: tides")],
        json: schema.is_some(),
        response_schema: schema,
        temperature: Some(0.2),
        max_tokens: Some(800),
        allowed_tools: vec!["web_search".into()],
        model: None,
    }
}

fn client(stream: bool) -> Client {
    Client::new(ClientConfig {
        model: Some("llama3.1".into()),
        model_overrides_document: false,
        stream,
        api_key: Secret::new("sk-test-key"),
    })
}

fn body(call: &Call) -> Value {
    serde_json::from_str(&call.body).expect("the body is JSON")
}

fn sources_schema() -> Value {
    json!({"type": "object", "required": ["sources"], "properties": {"sources": {"type": "array", "minItems": 2, "items": {"type": "string"}}}})
}

#[test]
fn a_strict_compatible_schema_is_sent_as_a_strict_json_schema() {
    let call = client(false)
        .call(&action("gather", request(Some(sources_schema()))))
        .unwrap();
    assert_eq!(call.format, ResponseFormat::JsonSchema);
    insta::assert_json_snapshot!(body(&call));
}

#[test]
fn a_schema_without_strict_form_falls_back_to_json_mode_with_the_schema_in_the_prompt() {
    let open = json!({"type": "object", "properties": {"report": {"type": "object"}}});
    let call = client(false)
        .call(&action("report", request(Some(open))))
        .unwrap();
    assert_eq!(call.format, ResponseFormat::JsonObject);
    insta::assert_json_snapshot!(body(&call));
}

#[test]
fn a_schema_the_scaffold_already_states_is_not_stated_twice() {
    let open = json!({"type": "object", "properties": {"report": {"type": "object"}}});
    let mut request = request(Some(open.clone()));
    request.system = format!(
        "### Output format (execution mandate)\n\n```json\n{}\n```\n",
        serde_json::to_string_pretty(&open).unwrap()
    );
    let call = client(false)
        .call(&action("report", request.clone()))
        .unwrap();
    assert_eq!(body(&call)["messages"][0]["content"], json!(request.system));
}

#[test]
fn free_text_streams_with_usage_and_no_response_format() {
    let mut request = request(None);
    request.temperature = None;
    request.max_tokens = None;
    let call = client(true).call(&action("write", request)).unwrap();
    assert_eq!(call.format, ResponseFormat::Text);
    insta::assert_json_snapshot!(body(&call));
}

#[test]
fn json_without_a_schema_asks_for_json_mode_and_says_json() {
    let mut request = request(None);
    request.json = true;
    request.system = "Summarise.".into();
    let call = client(false)
        .call(&action("summary", request.clone()))
        .unwrap();
    assert_eq!(call.format, ResponseFormat::JsonObject);
    insta::assert_json_snapshot!(body(&call));
    request.system = "Answer in JSON.".into();
    let call = client(false)
        .call(&action("summary", request.clone()))
        .unwrap();
    assert_eq!(
        body(&call)["messages"][0]["content"],
        json!("Answer in JSON.")
    );
}

#[test]
fn a_refused_response_format_is_retried_once_without_it_and_never_sent_again() {
    let mut client = client(false);
    let gather = action("gather", request(Some(sources_schema())));
    let first = client.call(&gather).unwrap();
    let refusal = HttpError {
        status: 400,
        retry_after: None,
        retry_after_ms: None,
        body:
            br#"{"error": {"message": "'response_format.type' must be 'json_schema' or 'text'"}}"#,
    };
    assert_eq!(
        client.http_error(&first, &refusal, None),
        AfterError::RetryWithoutFormat
    );
    let second = client.call(&gather).unwrap();
    assert_eq!(second.format, ResponseFormat::PromptOnly);
    insta::assert_json_snapshot!(body(&second));
    // The same refusal again is a failure: the fallback happens once.
    let AfterError::Fail(failure) = client.http_error(&second, &refusal, None) else {
        panic!("a second refusal must fail");
    };
    assert_eq!(
        (failure.kind.as_str(), failure.retryable),
        (failure::kind::BAD_REQUEST, false)
    );
    assert!(client.format_refused());
    // An unrelated 400 never triggers the fallback.
    let mut fresh = super::tests::client(false);
    let call = fresh.call(&gather).unwrap();
    let other = HttpError {
        status: 400,
        retry_after: None,
        retry_after_ms: None,
        body: br#"{"error": {"message": "max_tokens is too large"}}"#,
    };
    assert!(matches!(
        fresh.http_error(&call, &other, None),
        AfterError::Fail(_)
    ));
    assert!(!fresh.format_refused());
}

#[test]
fn the_model_is_the_configured_one_unless_the_document_names_one() {
    let mut named = request(None);
    named.model = Some("gpt-4o-mini".into());
    let chosen = |config: ClientConfig, request: &ModelRequest| {
        Client::new(config)
            .call(&action("n", request.clone()))
            .map(|c| c.model)
            .map_err(|f| f.message)
    };
    let configured = ClientConfig {
        model: Some("llama3.1".into()),
        ..ClientConfig::default()
    };
    assert_eq!(
        chosen(configured.clone(), &request(None)),
        Ok("llama3.1".into())
    );
    assert_eq!(chosen(configured.clone(), &named), Ok("gpt-4o-mini".into()));
    let forced = ClientConfig {
        model_overrides_document: true,
        ..configured
    };
    assert_eq!(chosen(forced, &named), Ok("llama3.1".into()));
    assert_eq!(
        chosen(ClientConfig::default(), &named),
        Ok("gpt-4o-mini".into())
    );
    assert_eq!(
        chosen(ClientConfig::default(), &request(None)),
        Err("no model to ask for `n`: the document names none and none is configured".into())
    );
}

#[test]
fn headers_carry_the_key_only_as_a_bearer_token() {
    let streaming = client(true);
    let call = streaming.call(&action("n", request(None))).unwrap();
    assert_eq!(
        streaming.headers(&call),
        [
            ("Content-Type", "application/json".to_owned()),
            ("Accept", "text/event-stream".to_owned()),
            ("Authorization", "Bearer sk-test-key".to_owned()),
        ]
    );
    assert!(!call.body.contains("sk-test-key"));
    let keyless = Client::new(ClientConfig {
        model: Some("m".into()),
        ..ClientConfig::default()
    });
    let call = keyless.call(&action("n", request(None))).unwrap();
    assert_eq!(keyless.headers(&call).len(), 2);
    assert!(format!("{streaming:?}").contains("Secret([redacted])"));
    assert!(!format!("{streaming:?}").contains("sk-test-key"));
}

#[test]
fn other_actions_are_not_calls() {
    let wait = Action {
        id: "a2".into(),
        kind: ActionKind::Wait {
            node: "n".into(),
            ms: 5,
        },
    };
    assert!(client(false).call(&wait).is_err());
}

fn client_with_key(key: &str) -> Client {
    Client::new(ClientConfig {
        model: Some("m".into()),
        api_key: Secret::new(key),
        ..ClientConfig::default()
    })
}

#[test]
fn an_answer_holding_a_real_key_is_refused_never_altered() {
    let client = client_with_key("sk-proj-0123456789abcdef");
    let answer = client.guard(Observation::text("my key is sk-proj-0123456789abcdef"));
    let Observation::ModelError(failure) = answer else {
        panic!("{answer:?}")
    };
    assert_eq!(failure.kind, "InvalidResponse");
    assert!(failure.retryable);
    assert!(!failure.message.contains("sk-proj"), "{}", failure.message);
    let completion = client
        .completion(
            br#"{"choices":[{"message":{"content":"sk-proj-0123456789abcdef"},"finish_reason":"stop"}]}"#,
        )
        .unwrap();
    assert_eq!(
        completion.text, "sk-proj-0123456789abcdef",
        "read whole, then guarded"
    );
}

#[test]
fn answers_are_never_rewritten_for_a_placeholder_key() {
    for (key, text) in [
        ("ollama", "ollama is a local model runner"),
        ("a", r#"{"answer": "a"}"#),
        ("sk-test-key", "my key is sk-test-key"),
    ] {
        let client = client_with_key(key);
        assert_eq!(
            client.guard(Observation::text(text)),
            Observation::text(text),
            "key {key}"
        );
    }
    let failure = client_with_key("a").guard(Observation::ModelError(failure::invalid_response(
        "Incorrect API key provided: a. You can find yours.",
    )));
    let Observation::ModelError(failure) = failure else {
        unreachable!()
    };
    assert_eq!(
        failure.message,
        "Incorrect API key provided: [redacted]. You can find yours."
    );
}
