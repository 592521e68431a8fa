//! The few browser services the studio uses: local storage, the location fragment, the
//! clipboard, file download and reading dropped or opened files.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

const AUTOSAVE_KEY: &str = "logicmd.studio.document";

pub fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

pub fn load_autosave() -> Option<String> {
    window()?
        .local_storage()
        .ok()??
        .get_item(AUTOSAVE_KEY)
        .ok()?
}

/// Best effort: a full or disabled storage must not break editing.
pub fn autosave(text: &str) {
    if let Some(storage) = window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(AUTOSAVE_KEY, text);
    }
}

/// The share payload in the location fragment (`#share=lm1.…`), if any.
pub fn share_fragment() -> Option<String> {
    let hash = window()?.location().hash().ok()?;
    let payload = hash.strip_prefix('#')?.strip_prefix("share=")?;
    Some(payload.to_owned())
}

/// The page's address without its fragment, for building share links.
pub fn page_address() -> String {
    window()
        .and_then(|w| w.location().href().ok())
        .map(|href| href.split('#').next().unwrap_or_default().to_owned())
        .unwrap_or_default()
}

/// Clears the fragment so a reload restores the autosave rather than the link again.
pub fn clear_fragment() {
    if let Some(history) = window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&page_address()));
    }
}

pub async fn copy_to_clipboard(text: String) -> Result<(), String> {
    let clipboard = window().ok_or("no window")?.navigator().clipboard();
    JsFuture::from(clipboard.write_text(&text))
        .await
        .map(|_| ())
        .map_err(|_| "the browser did not allow writing to the clipboard".to_owned())
}

pub fn download(name: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/markdown;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = window()
        .ok_or("no window")?
        .document()
        .ok_or("no document")?;
    let anchor: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    web_sys::Url::revoke_object_url(&url)
}

/// Reads a dropped or opened file as text; files larger than the core accepts are refused
/// before reading (the studio would only report them as too large).
pub async fn read_file(file: web_sys::File) -> Result<String, String> {
    let name = file.name();
    let limit = logicmd::Limits::DEFAULT.max_bytes;
    if file.size() > limit as f64 {
        return Err(format!(
            "{name} is {:.1} MiB; documents are limited to {} MiB",
            file.size() / 1_048_576.0,
            limit >> 20
        ));
    }
    JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|v| v.as_string())
        .ok_or_else(|| format!("could not read {name} as text"))
}

pub fn now_ms() -> f64 {
    window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Calls `on_resize` whenever `element` changes size, until the returned handle is dropped.
pub fn observe_size(
    element: &web_sys::Element,
    on_resize: impl Fn() + 'static,
) -> Option<send_wrapper::SendWrapper<SizeObserver>> {
    let callback = Closure::<dyn FnMut()>::new(on_resize);
    let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    observer.observe(element);
    Some(send_wrapper::SendWrapper::new(SizeObserver {
        observer,
        _callback: callback,
    }))
}

/// A live `ResizeObserver`; dropping it stops the observation.
pub struct SizeObserver {
    observer: web_sys::ResizeObserver,
    _callback: Closure<dyn FnMut()>,
}

impl Drop for SizeObserver {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// The first file of a drop.
pub fn dropped_file(ev: &web_sys::DragEvent) -> Option<web_sys::File> {
    ev.data_transfer()?.files()?.get(0)
}

/// The file input an `input` or `change` event came from.
pub fn file_input(ev: &web_sys::Event) -> Option<web_sys::HtmlInputElement> {
    ev.target()?.dyn_into::<web_sys::HtmlInputElement>().ok()
}

/// The first file chosen in the file input `ev` came from.
pub fn chosen_file(ev: &web_sys::Event) -> Option<web_sys::File> {
    file_input(ev)?.files()?.get(0)
}

/// Scrolls the first element matching `selector` into view (the nearest edge), if there is one.
pub fn scroll_into_view(selector: &str) {
    let element = window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten());
    if let Some(element) = element {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        element.scroll_into_view_with_scroll_into_view_options(&options);
    }
}

/// Gives the keyboard to the first element matching `selector` (HTML or SVG), if there is one.
pub fn focus(selector: &str) -> bool {
    let element = window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten());
    match element {
        Some(element) => match element.dyn_into::<web_sys::HtmlElement>() {
            Ok(html) => html.focus().is_ok(),
            Err(element) => element
                .dyn_into::<web_sys::SvgElement>()
                .is_ok_and(|svg| svg.focus().is_ok()),
        },
        None => false,
    }
}
