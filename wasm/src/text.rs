//! A JS string read into wasm memory by one `TextEncoder.encodeInto` call.
//!
//! wasm-bindgen's own string argument copies the text one UTF-16 unit at a time in its glue while
//! the text is ASCII, which on the corpus was a tenth of a `validate` call (issue #17); the
//! engine's encoder writes it straight into the string's buffer instead. Both give the same
//! UTF-8: a lone surrogate becomes U+FFFD either way (the WHATWG "UTF-8 encode").

use js_sys::{JsString, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// The engine's `TextEncoder` (a global in browsers and in Node).
    #[wasm_bindgen(js_name = TextEncoder)]
    type Encoder;

    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Encoder;

    #[wasm_bindgen(method, js_class = "TextEncoder", js_name = encodeInto)]
    fn encode_into(this: &Encoder, text: &JsString, into: &Uint8Array) -> Progress;

    /// What `encodeInto` did: UTF-16 units read, bytes written.
    type Progress;

    #[wasm_bindgen(method, getter)]
    fn read(this: &Progress) -> u32;

    #[wasm_bindgen(method, getter)]
    fn written(this: &Progress) -> u32;
}

thread_local! {
    static ENCODER: Encoder = Encoder::new();
}

/// Bytes to reserve for `units` UTF-16 units at first: exact for ASCII, with room for a few
/// longer characters; what does not fit is encoded in a further round.
fn first_guess(units: usize) -> usize {
    units + units / 16 + 16
}

/// `value` as a Rust `String` when it is a JS string (what `JsValue::as_string` gives, read faster).
pub fn js_text(value: &JsValue) -> Option<String> {
    value.dyn_ref::<JsString>().map(read_js_string)
}

/// `text` as a Rust `String`, the same UTF-8 as wasm-bindgen's conversion gives.
fn read_js_string(text: &JsString) -> String {
    let units = text.length() as usize;
    let mut bytes: Vec<u8> = Vec::with_capacity(first_guess(units));
    let mut rest = text.clone();
    let mut left = units;
    ENCODER.with(|encoder| loop {
        let room = bytes.capacity() - bytes.len();
        // SAFETY: the view covers the vector's spare capacity, which nothing else uses until the
        // call returns, and no allocation (which could move or grow memory) happens while it is
        // alive.
        let view = unsafe { Uint8Array::view_mut_raw(bytes.as_mut_ptr().add(bytes.len()), room) };
        let progress = encoder.encode_into(&rest, &view);
        let written = progress.written() as usize;
        // SAFETY: `encodeInto` wrote `written` (≤ `room`) bytes into the spare capacity.
        unsafe { bytes.set_len(bytes.len() + written) };
        // A character is at most 4 bytes: with that much room left, nothing was left out, and
        // the second getter call is saved.
        if room - written >= 4 {
            break;
        }
        let read = progress.read() as usize;
        left -= read.min(left);
        if left == 0 {
            break;
        }
        rest = rest.slice(read as u32, rest.length());
        // A UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair, two units, is 4).
        bytes.reserve(left * 3);
    });
    // SAFETY: `encodeInto` writes UTF-8 only, and it stops before a character that does not fit,
    // so every round ends on a character boundary.
    unsafe { String::from_utf8_unchecked(bytes) }
}
