//! The view follows the work: Fit when asked (any graph fits), a node brought into view when
//! asked (a problem or an obligation clicked), and nodes new in the graph (added, pasted,
//! duplicated) brought into view when they land outside it.

use std::collections::HashSet;

use leptos::prelude::*;

use crate::geometry::{fit, follow, graph_bounds, shows, NodeBox, NODE_HEIGHT, NODE_WIDTH};

/// At most this many new nodes are followed (a whole document replaced in the text is not
/// "new nodes": it stays where the view is).
const FOLLOWED: usize = 50;
/// Following new nodes zooms out no further than this: they stay readable.
const READABLE: f64 = 0.5;
use crate::state::Studio;

/// Fits the graph into view when asked (first load, a document opened, Fit).
pub fn fit_when_asked(studio: Studio, svg: NodeRef<leptos::svg::Svg>, size: RwSignal<(f64, f64)>) {
    Effect::new(move |_| {
        studio.fit_request.track();
        let Some(svg) = svg.get() else {
            return;
        };
        let rect = svg.get_bounding_client_rect();
        size.set((rect.width(), rect.height()));
        // What lies over the top of the canvas (the first screen's card) is not room to fit in.
        let covered = crate::browser::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(".welcome").ok().flatten())
            .map_or(0.0, |card| {
                (card.get_bounding_client_rect().bottom() - rect.top()).max(0.0)
            });
        let view = studio.graph.with_untracked(|g| {
            g.as_ref()
                .and_then(|g| fit(g, rect.width(), rect.height() - covered))
        });
        if let Some(mut view) = view {
            view.y += covered;
            studio.viewport.set(view);
        }
    });
}

/// Centres a node when asked, at the current zoom (at least `far`, so it is drawn readable).
pub fn reveal_when_asked(studio: Studio, size: RwSignal<(f64, f64)>, far: f64) {
    Effect::new(move |_| {
        let Some(id) = studio.reveal_request.get() else {
            return;
        };
        let place = studio
            .graph
            .with_untracked(|g| g.as_ref().and_then(|g| g.node(&id)).map(|n| (n.x, n.y)));
        let (width, height) = size.get_untracked();
        if let Some((x, y)) = place {
            studio.viewport.update(|view| {
                let scale = view.scale.max(far);
                view.scale = scale;
                view.x = width / 2.0 - (x + NODE_WIDTH / 2.0) * scale;
                view.y = height / 2.0 - (y + NODE_HEIGHT / 2.0) * scale;
            });
        }
    });
}

/// Nodes that appear in the graph while the document stays the same one (added from the
/// palette or the keyboard, pasted, duplicated) are brought into view if they land outside it.
/// A document opened afresh is fitted instead ([`fit_when_asked`]).
pub fn new_nodes_into_view(studio: Studio, size: RwSignal<(f64, f64)>) {
    let seen = StoredValue::new((HashSet::<String>::new(), 0u32));
    Effect::new(move |_| {
        let epoch = studio.layout_epoch.get();
        let added: Option<NodeBox> = studio.graph.with(|g| {
            let g = g.as_ref()?;
            let (before, seen_epoch) = seen.get_value();
            let ids: HashSet<String> = g.nodes.iter().map(|n| n.id.clone()).collect();
            let fresh = seen_epoch != epoch || before.is_empty();
            seen.set_value((ids, epoch));
            let added: Vec<_> = g.nodes.iter().filter(|n| !before.contains(&n.id)).collect();
            if fresh || added.len() > FOLLOWED {
                return None;
            }
            bounds(added.into_iter())
        });
        let Some(bounds) = added else {
            return;
        };
        let view = studio.viewport.get_untracked();
        if let Some(moved) = follow(view, size.get_untracked(), bounds, READABLE) {
            studio.viewport.set(moved);
        }
    });
}

/// When the canvas changes size (the Run panel opens, a side panel is shown), a graph that was
/// wholly in view is fitted to the new size; otherwise the middle of the view stays the middle.
pub fn keep_in_view_on_resize(studio: Studio, size: RwSignal<(f64, f64)>) {
    Effect::new(move |before: Option<(f64, f64)>| {
        let now = size.get();
        let Some(before) = before.filter(|b| b.0 > 0.0 && b.1 > 0.0 && *b != now) else {
            return now;
        };
        let view = studio.viewport.get_untracked();
        let whole = studio
            .graph
            .with_untracked(|g| g.as_deref().and_then(graph_bounds))
            .is_some_and(|b| shows(view, before, b));
        let refitted = whole
            .then(|| {
                studio
                    .graph
                    .with_untracked(|g| g.as_deref().and_then(|g| fit(g, now.0, now.1)))
            })
            .flatten();
        studio
            .viewport
            .set(refitted.unwrap_or(crate::state::Viewport {
                x: view.x + (now.0 - before.0) / 2.0,
                y: view.y + (now.1 - before.1) / 2.0,
                ..view
            }));
        now
    });
}

fn bounds<'a>(nodes: impl Iterator<Item = &'a logicmd::graph::GraphNode>) -> Option<NodeBox> {
    nodes.fold(None, |acc: Option<NodeBox>, n| {
        let b = (n.x, n.y, n.x + NODE_WIDTH, n.y + NODE_HEIGHT);
        Some(acc.map_or(b, |a| {
            (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
        }))
    })
}
