//! The studio's shared state: the text is the single source of truth; everything drawn is
//! derived from it, and every change (canvas, inspector, typing) goes through `apply` or
//! `replace_text` so that undo sees it.

use std::sync::Arc;

use leptos::prelude::*;
use logicmd::diagnostic::Diagnostic;
use logicmd::edit::{apply, Edit};
use logicmd::graph::{Direction, Graph, LayoutOptions};

use crate::analysis::{analyze_replacing, check, diagnostics_of, Analysis};
use crate::browser;
use crate::history::{History, Splice};
use crate::selection::Selection;

#[derive(Debug, Clone, PartialEq)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// A message in the status bar (share results, refused connections, unreadable files...).
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub severity: Severity,
    pub text: String,
}

/// Pan (translation in screen pixels) and zoom of the canvas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    pub x: f64,
    pub y: f64,
    pub scale: f64,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            x: 40.0,
            y: 40.0,
            scale: 1.0,
        }
    }
}

#[derive(Clone, Copy)]
pub struct Studio {
    /// The text, written only through the methods below (they keep the analysis following it).
    pub text: ReadSignal<String>,
    write_text: WriteSignal<String>,
    /// Notified when the analysis is to follow the text: at once for every change but a key
    /// typed in the source pane, whose analysis waits for the frame showing the key
    /// ([`Studio::replace_text_typed`]).
    analyse: Trigger,
    /// A typed change waits for its analysis (one is scheduled).
    analysis_pending: StoredValue<bool>,
    /// The last change was a key typed in the source: its checks wait for typing to pause.
    typed_last: StoredValue<bool>,
    /// How many changes the text has had, and where the last one was if it was typed.
    revision: StoredValue<(u64, Option<Splice>)>,
    /// The analysis of the text: it follows `text` (see `analyse`), so between a key typed in
    /// the source and the next frame it may be the analysis of the text before the key.
    pub analysis: Memo<Analysis>,
    /// The last graph of a text that parsed: kept while the text is broken.
    pub graph: Memo<Option<Arc<Graph>>>,
    /// Every problem of the text: parse problems at once, schema and rule problems once the
    /// deferred checks of the current text have run (until then, those of the previous text).
    pub diagnostics: Memo<Vec<Diagnostic>>,
    /// What a run of the text needs that its checks do not see (`logicmd::run::preflight`),
    /// from the same deferred check: the Problems list's "Before a run".
    pub run_needs: RwSignal<Vec<Diagnostic>>,
    /// The checks of the current text have not run yet.
    pub checking: RwSignal<bool>,
    /// Milliseconds the last checks took.
    pub check_ms: RwSignal<f64>,
    pub history: RwSignal<History>,
    /// The selected nodes or wire (see [`Selection`]).
    pub selection: RwSignal<Selection>,
    pub notice: RwSignal<Option<Notice>>,
    pub viewport: RwSignal<Viewport>,
    /// Bumped to ask the canvas to fit the graph into view.
    pub fit_request: RwSignal<u32>,
    /// Asks the canvas to bring this node into view.
    pub reveal_request: RwSignal<Option<String>>,
    /// An inline error of the inspector: (pointer, message).
    pub field_error: RwSignal<Option<(String, String)>>,
    /// The last share link made, shown for copying by hand.
    pub share_link: RwSignal<Option<String>>,
    /// Bumped to lay the graph out afresh (Auto-layout, a document opened); otherwise nodes
    /// keep their places between edits ([`crate::stable`]).
    pub layout_epoch: RwSignal<u32>,
    /// (old id, new id) of nodes renamed since the graph was last drawn: they keep their place.
    pub renamed: StoredValue<Vec<(String, String)>>,
    /// The node whose name is being edited on the canvas.
    pub renaming: RwSignal<Option<String>>,
    /// Where nodes new in the next graph go (graph coordinates), e.g. pasted steps.
    pub place_new: StoredValue<Option<(f64, f64)>>,
}

impl Studio {
    /// A studio on `initial`, laying graphs out afresh in `direction` (the remembered choice).
    pub fn new(initial: String, direction: RwSignal<Direction>) -> Studio {
        let (text, write_text) = signal(initial);
        let analyse = Trigger::new();
        let retired = Retired::default();
        // The memo hands its previous analysis over (no copy kept here): an edit inside one
        // value then changes the previous document in place when nothing else holds it.
        let analysis = Memo::new_owning(move |previous: Option<Analysis>| {
            analyse.track();
            let (next, rest) =
                text.with_untracked(|t| analyze_replacing(t, previous, browser::now_ms));
            // As `Memo::new` compares; a new parse never equals the previous one (identity).
            let changed = rest.as_ref().is_none_or(|rest| *rest != next);
            if let Some(rest) = rest {
                retired.keep(rest);
            }
            (next, changed)
        });
        let layout_epoch = RwSignal::new(0u32);
        let renamed = StoredValue::new(Vec::new());
        let place_new = StoredValue::new(None);
        let places = Places {
            layout_epoch,
            renamed,
            place_new,
            direction,
        };
        let graph = stable_graph(text, analysis, places);
        let checked = RwSignal::new(Vec::<Diagnostic>::new());
        let run_needs = RwSignal::new(Vec::<Diagnostic>::new());
        let checking = RwSignal::new(false);
        let check_ms = RwSignal::new(0.0);
        let typed_last = StoredValue::new(false);
        schedule_checks(
            analysis,
            (checked, run_needs),
            checking,
            check_ms,
            typed_last,
        );
        let diagnostics =
            Memo::new(move |_| analysis.with(|a| checked.with(|c| diagnostics_of(a, c))));
        Studio {
            text,
            write_text,
            analyse,
            analysis_pending: StoredValue::new(false),
            typed_last,
            revision: StoredValue::new((0, None)),
            analysis,
            graph,
            diagnostics,
            run_needs,
            checking,
            check_ms,
            history: RwSignal::new(History::default()),
            selection: RwSignal::new(Selection::none()),
            notice: RwSignal::new(None),
            viewport: RwSignal::new(Viewport::default()),
            fit_request: RwSignal::new(0),
            reveal_request: RwSignal::new(None),
            field_error: RwSignal::new(None),
            share_link: RwSignal::new(None),
            layout_epoch,
            renamed,
            renaming: RwSignal::new(None),
            place_new,
        }
    }

    /// The primary selected node (tracked): the one the inspector shows.
    pub fn selected(&self) -> Option<String> {
        self.selection.with(|s| s.primary().map(str::to_owned))
    }

    /// [`Studio::selected`], untracked.
    pub fn selected_untracked(&self) -> Option<String> {
        self.selection
            .with_untracked(|s| s.primary().map(str::to_owned))
    }

    pub fn select(&self, selection: Selection) {
        self.selection.set(selection);
    }

    /// Selects node `id` alone.
    pub fn select_node(&self, id: impl Into<String>) {
        self.selection.set(Selection::node(id));
    }

    pub fn notify(&self, severity: Severity, text: impl Into<String>) {
        self.notice.set(Some(Notice {
            severity,
            text: text.into(),
        }));
    }

    /// Replaces the whole text as one undoable change (typing, opening, examples).
    pub fn replace_text(&self, new: String) {
        self.replace_text_in(new, None);
    }

    /// Replaces the whole text; consecutive changes of one `group` (a field being typed in) are
    /// one undoable change together.
    pub fn replace_text_in(&self, new: String, group: Option<&str>) {
        if self.recorded(&new, group).is_some() {
            self.set_text(new);
        }
    }

    /// Records the change to `new` for undo: where it is, or `None` when `new` changes nothing.
    fn recorded(&self, new: &str, group: Option<&str>) -> Option<Splice> {
        self.text.with_untracked(|old| {
            if old == new {
                return None;
            }
            self.history
                .try_update(|h| h.record_in(old, new, group))
                .flatten()
        })
    }

    /// The text's revision now, and where its one change since revision `seen` was if that
    /// change was a typed key (`None` after any other change, or several).
    pub fn splice_since(&self, seen: u64) -> (u64, Option<Splice>) {
        let (now, typed) = self.revision.get_value();
        (now, typed.filter(|_| now == seen + 1))
    }

    fn revised(&self, typed: Option<Splice>) {
        self.revision.update_value(|(n, last)| {
            *n += 1;
            *last = typed;
        });
    }

    /// A key typed in the source pane: [`Studio::replace_text`], with the analysis (graph,
    /// canvas, inspector, problems) run after the frame that shows the key, so the key is on
    /// screen as fast as the browser can draw it. The text itself is the new one at once, so
    /// nothing typed waits or can be lost; keys typed before that frame share one analysis.
    pub fn replace_text_typed(&self, new: String) {
        let Some(splice) = self.recorded(&new, None) else {
            return;
        };
        self.revised(Some(splice));
        self.write_text.set(new);
        self.typed_last.set_value(true);
        if self.analysis_pending.get_value() {
            return;
        }
        self.analysis_pending.set_value(true);
        // The problems shown are the previous text's until the analysis: say they are being
        // checked (the check that follows the analysis clears it).
        self.checking.set(true);
        let (pending, analyse) = (self.analysis_pending, self.analyse);
        after_the_frame(move || {
            // Not if a change since did it (`set_text`).
            if pending.try_update_value(|p| std::mem::replace(p, false)) == Some(true) {
                analyse.notify();
            }
        });
    }

    /// Runs `action` once the analysis follows the text: now, or after a typed change's
    /// analysis (scheduled after it, it runs after it). For what reads the graph's places in
    /// the text, which a key typed since would have moved.
    pub fn when_analysed(&self, action: impl FnOnce() + 'static) {
        if !self.analysis_pending.get_value() {
            action();
            return;
        }
        after_the_frame(action);
    }

    /// Has a typed change's waiting analysis done now, for a command that reads the graph's
    /// places in the text.
    pub fn analyse_pending(&self) {
        if self.analysis_pending.get_value() {
            self.analysis_pending.set_value(false);
            self.analyse.notify();
        }
    }

    /// Sets the text and has the analysis follow it at once (a typed change's waiting analysis
    /// is done with it).
    fn set_text(&self, new: String) {
        self.revised(None);
        self.write_text.set(new);
        self.typed_last.set_value(false);
        self.analysis_pending.set_value(false);
        self.analyse.notify();
    }

    /// Loads a new document: one undoable change, selection cleared, view fitted.
    pub fn load(&self, new: String) {
        self.selection.set(Selection::none());
        self.renaming.set(None);
        self.field_error.set(None);
        self.layout_epoch.update(|n| *n += 1);
        self.replace_text(new);
        self.fit_request.update(|n| *n += 1);
    }

    /// Applies a structural edit through the core; the refusal's message is returned.
    pub fn apply(&self, edit: &Edit) -> Result<logicmd::edit::Applied, String> {
        let old = self.text.get_untracked();
        match apply(&old, edit) {
            Ok(applied) => {
                let recorded = self.history.try_update(|h| h.record(&old, &applied.text));
                if recorded.flatten().is_some() {
                    self.set_text(applied.text.clone());
                }
                Ok(applied)
            }
            Err(refusal) => Err(refusal.message),
        }
    }

    /// Applies several edits as one undoable change, starting from `base` instead of the text
    /// when given (a blank text gets a template first); nothing changes if one is refused.
    pub fn apply_all(&self, base: Option<&str>, edits: &[Edit]) -> Result<(), String> {
        let old = self.text.get_untracked();
        let mut text = base.map_or_else(|| old.clone(), str::to_owned);
        for edit in edits {
            text = apply(&text, edit).map_err(|refusal| refusal.message)?.text;
        }
        self.replace_text(text);
        Ok(())
    }

    pub fn undo(&self) {
        let previous = self
            .text
            .with_untracked(|current| self.history.try_update(|h| h.undo(current)))
            .flatten();
        if let Some(previous) = previous {
            self.set_text(previous);
        }
    }

    pub fn redo(&self) {
        let next = self
            .text
            .with_untracked(|current| self.history.try_update(|h| h.redo(current)))
            .flatten();
        if let Some(next) = next {
            self.set_text(next);
        }
    }
}

/// Runs `action` in a task after the next frame has been drawn (its animation frame, then a
/// task): work that must not delay what that frame shows.
fn after_the_frame(action: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(action, std::time::Duration::ZERO));
}

/// The graph drawn: the last graph of a text that parsed, its nodes kept where they were
/// unless the layout was asked for afresh.
/// A cleared text has no graph (not the old one).
fn stable_graph(
    text: ReadSignal<String>,
    analysis: Memo<Analysis>,
    places: Places,
) -> Memo<Option<Arc<Graph>>> {
    let Places {
        layout_epoch,
        renamed,
        place_new,
        direction,
    } = places;
    let seen_epoch = StoredValue::new(0u32);
    Memo::new(move |previous: Option<&Option<Arc<Graph>>>| {
        let epoch = layout_epoch.get();
        let fresh = seen_epoch.get_value() != epoch;
        seen_epoch.set_value(epoch);
        let previous = previous.cloned().flatten();
        let Some(next) = analysis.with(|a| a.graph.clone()) else {
            // The analysis follows the text: read with it, not on every key.
            let blank = text.with_untracked(|t| t.trim().is_empty());
            return if blank { None } else { previous };
        };
        let renamed = renamed.try_update_value(std::mem::take).unwrap_or_default();
        let anchor = place_new.try_update_value(Option::take).flatten();
        match previous {
            Some(before) if !fresh => Some(
                crate::stable::keep_places(
                    &before,
                    &next,
                    &renamed,
                    anchor,
                    direction.get_untracked(),
                )
                .map_or(next, Arc::new),
            ),
            _ => Some(turned(next, direction.get_untracked())),
        }
    })
}

/// What decides where the drawn graph's nodes go (see [`stable_graph`]).
#[derive(Clone, Copy)]
struct Places {
    layout_epoch: RwSignal<u32>,
    renamed: StoredValue<Vec<(String, String)>>,
    place_new: StoredValue<Option<(f64, f64)>>,
    direction: RwSignal<Direction>,
}

/// The analysis lays out top-down (the shared, cached layout); a graph laid out afresh in
/// another direction is laid out again. Read untracked: the choice itself asks for a fresh
/// layout (`canvas::auto_layout`), which is what applies it.
fn turned(graph: Arc<Graph>, direction: Direction) -> Arc<Graph> {
    if direction == Direction::TopDown {
        return graph;
    }
    let mut graph = Arc::unwrap_or_clone(graph);
    logicmd::graph::layout(
        &mut graph,
        LayoutOptions {
            direction,
            ..LayoutOptions::default()
        },
    );
    Arc::new(graph)
}

/// Typing has paused when no key came for this long: the checks of typed text wait for it.
const TYPING_PAUSE: std::time::Duration = std::time::Duration::from_millis(300);

/// Runs the schema and rule checks of each new parse after the browser has drawn its graph
/// (the next animation frame, then a task), so a change redraws at once; of text typed in the
/// source (`typed_last`), once typing pauses ([`TYPING_PAUSE`]): checking a large document takes
/// longer than the time between two keys, and a key arriving during it waited (issue #38). A
/// parse superseded before its turn is never checked; until then the problems list says
/// "checking…".
fn schedule_checks(
    analysis: Memo<Analysis>,
    (checked, run_needs): (RwSignal<Vec<Diagnostic>>, RwSignal<Vec<Diagnostic>>),
    checking: RwSignal<bool>,
    check_ms: RwSignal<f64>,
    typed_last: StoredValue<bool>,
) {
    let generation = Arc::new(std::sync::atomic::AtomicU64::new(0));
    Effect::new(move |_| {
        use std::sync::atomic::Ordering;
        // Every new analysis supersedes the checks still waiting, a text that does not parse too.
        let mine = generation.fetch_add(1, Ordering::SeqCst) + 1;
        let Some(parsed) = analysis.with(|a| a.parsed.clone()) else {
            checked.set(Vec::new());
            run_needs.set(Vec::new());
            checking.set(false);
            return;
        };
        checking.set(true);
        let generation = Arc::clone(&generation);
        let run = move || {
            if generation.load(Ordering::SeqCst) != mine {
                return;
            }
            let started = browser::now_ms();
            let (found, needs) = check(&parsed);
            check_ms.set(browser::now_ms() - started);
            checked.set(found);
            run_needs.set(needs);
            checking.set(false);
        };
        if typed_last.get_value() {
            set_timeout(run, TYPING_PAUSE);
        } else {
            after_the_frame(run);
        }
    });
}

/// Analyses replaced by newer ones, freed in a later task: freeing a large document's tree
/// takes milliseconds that would otherwise delay the redraw of the new one.
#[derive(Clone, Copy)]
struct Retired(StoredValue<Vec<Analysis>>);

impl Default for Retired {
    fn default() -> Self {
        Retired(StoredValue::new(Vec::new()))
    }
}

impl Retired {
    fn keep(self, analysis: Analysis) {
        let first = self.0.try_update_value(|kept| {
            kept.push(analysis);
            kept.len() == 1
        });
        if first == Some(true) {
            set_timeout(
                move || {
                    let freed = self.0.try_update_value(std::mem::take);
                    drop(freed);
                },
                std::time::Duration::from_millis(50),
            );
        }
    }
}
