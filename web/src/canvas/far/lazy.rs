//! The far level of detail is a wasm chunk of its own: a document that is never zoomed out past
//! `FAR_SCALE` never downloads it. The canvas asks for it the first time the view goes far (the
//! SVG keeps drawing the selection meanwhile) and keeps it from then on.

use std::cell::Cell;

use leptos::prelude::*;
use rustc_hash::FxHashMap;

use super::super::Sides;
use crate::problems::NodeProblems;

/// What the far canvas is drawn from.
#[derive(Clone, Copy)]
pub struct Inputs {
    pub size: RwSignal<(f64, f64)>,
    pub far: Memo<bool>,
    pub kept: Memo<Vec<String>>,
    pub problems: Memo<FxHashMap<String, NodeProblems>>,
    pub sides: Sides,
}

/// What the chunk gives the canvas.
pub trait Far {
    fn view(&self, inputs: Inputs) -> AnyView;
}

/// The chunk could not be fetched or instantiated.
pub struct LoadFailed;

impl From<leptos::wasm_split::SplitLoaderError> for LoadFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        LoadFailed
    }
}

/// The split point: fetches the far canvas's chunk on the first call.
#[leptos::wasm_split::wasm_split(far_canvas, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn load() -> Result<&'static dyn Far, LoadFailed> {
    Ok(&Chunk)
}

struct Chunk;

impl Far for Chunk {
    fn view(&self, i: Inputs) -> AnyView {
        view! { <super::FarCanvas size=i.size far=i.far kept=i.kept problems=i.problems sides=i.sides /> }
            .into_any()
    }
}

thread_local! {
    static LOADED: Cell<Option<&'static dyn Far>> = const { Cell::new(None) };
}

/// The far canvas once the view has gone far: fetched then, drawn from then on.
#[component]
pub fn LazyFarCanvas(inputs: Inputs) -> impl IntoView {
    let ready = RwSignal::new(LOADED.with(Cell::get).is_some());
    Effect::new(move |_| {
        if inputs.far.get() && !ready.get_untracked() {
            leptos::task::spawn_local(async move {
                if let Ok(far) = load().await {
                    LOADED.with(|l| l.set(Some(far)));
                    ready.set(true);
                }
            });
        }
    });
    move || {
        ready
            .get()
            .then(|| LOADED.with(Cell::get).map(|far| far.view(inputs)))
            .flatten()
    }
}
