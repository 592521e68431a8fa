//! Share links: the document deflated and base64url-encoded behind a versioned prefix, decoded
//! with a size limit so a crafted link cannot expand without bound.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::decompress_to_vec_with_limit;

/// Version 1 of the link format.
pub const PREFIX: &str = "lm1.";
/// Largest document a link may expand to.
pub const MAX_DECODED: usize = 1 << 20;
/// Longest link accepted.
pub const MAX_LINK: usize = 512 * 1024;

/// The share link payload of `text`: [`PREFIX`] then the text deflated and base64url-encoded (no
/// padding). Decodes back to `text` exactly.
pub fn encode(text: &str) -> String {
    format!(
        "{PREFIX}{}",
        URL_SAFE_NO_PAD.encode(compress_to_vec(text.as_bytes(), 9))
    )
}

/// The text behind a share link. Accepts the bare payload, `share=` plus the payload, or a whole
/// URL whose fragment holds either; refuses, with the reason, a link longer than [`MAX_LINK`], one
/// without [`PREFIX`], corrupted data, text that expands beyond [`MAX_DECODED`] bytes, and text
/// that is not UTF-8.
pub fn decode(link: &str) -> Result<String, String> {
    let link = link.trim();
    let payload = link.rsplit_once('#').map_or(link, |(_, fragment)| fragment);
    let payload = payload.strip_prefix("share=").unwrap_or(payload);
    if payload.len() > MAX_LINK {
        return Err(format!("the link is longer than {MAX_LINK} characters"));
    }
    let Some(body) = payload.strip_prefix(PREFIX) else {
        return Err(format!(
            "not a logicmd share link: it must start with `{PREFIX}`"
        ));
    };
    let bytes = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|e| format!("the link is corrupted (base64url): {e}"))?;
    let inflated = decompress_to_vec_with_limit(&bytes, MAX_DECODED).map_err(|e| {
        format!(
            "the link is corrupted or expands beyond {} ({:?})",
            crate::limits::format_limit(MAX_DECODED),
            e.status
        )
    })?;
    String::from_utf8(inflated).map_err(|_| "the link does not hold UTF-8 text".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_corruption() {
        let text = "---\nspec_version: \"1.0\"\nname: é😀\n---\n";
        let link = encode(text);
        assert!(link.starts_with(PREFIX));
        assert_eq!(decode(&link).unwrap(), text);
        assert_eq!(
            decode(&format!("https://studio/#share={link}")).unwrap(),
            text
        );
        assert!(decode("lm1.!!!").is_err());
        assert!(decode("lm2.abc").is_err());
        let bomb = encode(&"a".repeat(MAX_DECODED + 10));
        assert!(decode(&bomb).unwrap_err().contains("expands beyond"));
    }
}
