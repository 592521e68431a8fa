//! Runs paused for a review, kept in memory until `resume_run` answers them (tools write no
//! files, so no state file holds them). Bounded: past `MOST_PAUSED` the oldest is let go. Ids are
//! unguessable, so one client cannot stumble on another's run.

use std::collections::hash_map::RandomState;
use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use logicmd::run::session::Session;
use serde_json::Value;

use crate::providers::OpenAiProvider;

/// Most paused runs kept at once.
const MOST_PAUSED: usize = 32;

/// A run waiting for people.
pub struct Paused {
    pub session: Session,
    /// Every event so far (the summary and the trace are made from them).
    pub events: Vec<Value>,
    /// The document's name, as reports give it.
    pub document: String,
    /// The server model calls go to (the OpenAI-compatible provider), if any.
    pub model: Option<Arc<OpenAiProvider>>,
    /// Answers are synthetic: no link is checked over the network.
    pub simulated: bool,
}

struct Store {
    /// By id; ids start with a counter, so the first is the oldest.
    runs: BTreeMap<String, Paused>,
}

static STORE: LazyLock<Mutex<Store>> = LazyLock::new(|| {
    Mutex::new(Store {
        runs: BTreeMap::new(),
    })
});
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Keeps `paused` and gives its id.
pub fn keep(paused: Paused) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(n);
    let id = format!("run-{n:06}-{:016x}", hasher.finish());
    if let Ok(mut store) = STORE.lock() {
        while store.runs.len() >= MOST_PAUSED {
            store.runs.pop_first();
        }
        store.runs.insert(id.clone(), paused);
    }
    id
}

/// Takes the run `id` out of the store (it goes back with a new id if it pauses again).
pub fn take(id: &str) -> Option<Paused> {
    STORE.lock().ok()?.runs.remove(id)
}
