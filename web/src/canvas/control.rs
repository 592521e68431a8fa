//! The canvas's pointer controller as pure functions (after xyflow's split): what a press hit,
//! where the pointer is and which keys are held go in; the gesture in progress and the
//! [`Command`]s it asks for come out. Nothing here touches the browser or the studio: the canvas
//! component hit-tests the DOM into a [`Hit`] and carries the commands out (`commands.rs`), so
//! panning, dragging, connecting and selecting are unit-tested without a browser.

use super::gesture::{Gesture, WireEnd};
use crate::selection::Selection;
use crate::state::Viewport;

/// What a press landed on.
#[derive(Debug, Clone, PartialEq)]
pub enum Hit {
    /// A port circle: its node id, its name, and whether it is an input.
    Port {
        node: String,
        port: String,
        input: bool,
    },
    Node(String),
    /// A wire: (source node id, target node id).
    Wire((String, String)),
    /// A handle of the selected wire; `fixed` is the other end, in graph coordinates.
    Handle {
        ends: (String, String),
        moving: WireEnd,
        fixed: (f64, f64),
    },
    Empty,
}

/// The modifier keys held.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Keys {
    pub shift: bool,
    /// Ctrl or Cmd.
    pub ctrl: bool,
    pub alt: bool,
}

/// Where the pointer is, in the three coordinate systems the gestures use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// The page's (client) pixels.
    pub client: (f64, f64),
    /// Pixels from the canvas's top-left corner.
    pub canvas: (f64, f64),
    /// Graph units.
    pub graph: (f64, f64),
}

/// What the studio is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Select(Selection),
    /// Shift/ctrl-click: the node added to the selection or taken out.
    Toggle(String),
    /// The nodes `ids` moved by the drag of `pressed` (its move snapped to the grid unless
    /// `free`; the others keep their offsets from it).
    Move {
        pressed: String,
        ids: Vec<String>,
        by: (f64, f64),
        free: bool,
    },
    /// A wire from an output (node id, port) to an input (node id, port), let go at `at`
    /// (canvas pixels: where a refusal is said).
    Connect {
        from: (String, String),
        to: (String, String),
        at: (f64, f64),
    },
    /// The `moving` end of the wire `ends` dropped onto node `onto` at `at`.
    Reattach {
        ends: (String, String),
        moving: WireEnd,
        onto: String,
        at: (f64, f64),
    },
    /// Select the nodes inside the box between these graph points.
    SelectBox((f64, f64), (f64, f64)),
    /// Nothing was done: say why next to the pointer (canvas pixels).
    Refuse((f64, f64), String),
    /// A new press clears the last refusal and the inspector's stale field error.
    Clear,
}

/// Pointer moves under this many graph units (both axes summed) are a click, not a drag.
const CLICK_SLOP: f64 = 2.0;

/// A press of the primary button: the gesture it starts and what it does at once.
pub fn press(
    hit: Hit,
    at: Point,
    keys: Keys,
    selection: &Selection,
    view: Viewport,
) -> (Option<Gesture>, Vec<Command>) {
    let mut commands = vec![Command::Clear];
    let gesture = match hit {
        Hit::Handle {
            ends,
            moving,
            fixed,
        } => Some(Gesture::Reattach {
            ends,
            moving,
            fixed,
            end: at.graph,
        }),
        Hit::Port { node, port, input } => Some(Gesture::Wire {
            from: node,
            port,
            backwards: input,
            start: at.graph,
            end: at.graph,
        }),
        Hit::Node(id) if keys.shift || keys.ctrl => {
            commands.push(Command::Toggle(id));
            None
        }
        Hit::Node(id) => {
            let pressed = selection.pressed(&id);
            let group: Vec<String> = pressed
                .ids()
                .iter()
                .filter(|g| **g != id)
                .cloned()
                .collect();
            commands.push(Command::Select(pressed));
            Some(Gesture::Node {
                id,
                group,
                start: at.client,
                dx: 0.0,
                dy: 0.0,
            })
        }
        Hit::Wire(ends) => {
            commands.push(Command::Select(Selection::wire(ends)));
            None
        }
        Hit::Empty if keys.shift => Some(Gesture::Box {
            start: at.canvas,
            end: at.canvas,
        }),
        Hit::Empty => {
            commands.push(Command::Select(Selection::none()));
            Some(Gesture::Pan {
                start: at.client,
                origin: view,
            })
        }
    };
    (gesture, commands)
}

/// The gesture after the pointer moved to `at` (zoom `scale`), and the view when it pans.
pub fn drag(gesture: Gesture, at: Point, scale: f64) -> (Gesture, Option<Viewport>) {
    match gesture {
        Gesture::Pan { start, origin } => {
            let view = Viewport {
                x: origin.x + at.client.0 - start.0,
                y: origin.y + at.client.1 - start.1,
                ..origin
            };
            (Gesture::Pan { start, origin }, Some(view))
        }
        Gesture::Box { start, .. } => (
            Gesture::Box {
                start,
                end: at.canvas,
            },
            None,
        ),
        Gesture::Node {
            id, group, start, ..
        } => (
            Gesture::Node {
                id,
                group,
                start,
                dx: (at.client.0 - start.0) / scale,
                dy: (at.client.1 - start.1) / scale,
            },
            None,
        ),
        Gesture::Wire {
            from,
            port,
            backwards,
            start,
            ..
        } => (
            Gesture::Wire {
                from,
                port,
                backwards,
                start,
                end: at.graph,
            },
            None,
        ),
        Gesture::Reattach {
            ends,
            moving,
            fixed,
            ..
        } => (
            Gesture::Reattach {
                ends,
                moving,
                fixed,
                end: at.graph,
            },
            None,
        ),
        pinch @ Gesture::Pinch { .. } => (pinch, None),
    }
}

/// Where a wire's loose end can land: `outputs` false asks for the input port of the node
/// under a graph point (a wire drawn forwards), true for its output port (drawn backwards from
/// an input).
pub type DropAt<'a> = &'a dyn Fn((f64, f64), bool) -> Option<(String, String)>;

/// The release of the primary button at `at`: what the finished gesture does. `canvas_to_graph`
/// turns a point of the canvas into graph units (for a selection box).
pub fn release(
    gesture: Gesture,
    at: Point,
    keys: Keys,
    drop_at: DropAt<'_>,
    canvas_to_graph: &dyn Fn((f64, f64)) -> (f64, f64),
) -> Vec<Command> {
    match gesture {
        Gesture::Box { start, end } => {
            vec![Command::SelectBox(
                canvas_to_graph(start),
                canvas_to_graph(end),
            )]
        }
        Gesture::Node {
            id, group, dx, dy, ..
        } if dx.abs() + dy.abs() > CLICK_SLOP => {
            let mut ids = group;
            ids.push(id.clone());
            vec![Command::Move {
                pressed: id,
                ids,
                by: (dx, dy),
                free: keys.alt,
            }]
        }
        // Not dragged: a click on a node of a group selects it alone.
        Gesture::Node { id, group, .. } if !group.is_empty() => {
            vec![Command::Select(Selection::node(id))]
        }
        Gesture::Wire {
            from,
            port,
            backwards,
            ..
        } => match drop_at(at.graph, backwards) {
            Some(other) if backwards => vec![Command::Connect {
                from: other,
                to: (from, port),
                at: at.canvas,
            }],
            Some(other) => vec![Command::Connect {
                from: (from, port),
                to: other,
                at: at.canvas,
            }],
            None => vec![Command::Refuse(
                at.canvas,
                "Not connected: drop the wire on a node to connect it".to_owned(),
            )],
        },
        Gesture::Reattach { ends, moving, .. } => match drop_at(at.graph, false) {
            Some((onto, _)) => vec![Command::Reattach {
                ends,
                moving,
                onto,
                at: at.canvas,
            }],
            None => vec![Command::Refuse(
                at.canvas,
                "Not moved: drop the wire's end on a node to move it there".to_owned(),
            )],
        },
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, y: f64) -> Point {
        Point {
            client: (x, y),
            canvas: (x - 100.0, y - 50.0),
            graph: ((x - 100.0) / 2.0, (y - 50.0) / 2.0),
        }
    }

    const VIEW: Viewport = Viewport {
        x: 0.0,
        y: 0.0,
        scale: 2.0,
    };

    fn s(id: &str) -> String {
        id.to_owned()
    }

    fn nowhere(_: (f64, f64), _: bool) -> Option<(String, String)> {
        None
    }

    #[test]
    fn dragging_the_empty_canvas_pans_and_clears_the_selection() {
        let (gesture, commands) = press(
            Hit::Empty,
            at(300.0, 200.0),
            Keys::default(),
            &Selection::node("a"),
            VIEW,
        );
        assert_eq!(
            commands,
            vec![Command::Clear, Command::Select(Selection::none())]
        );
        let (_, view) = drag(gesture.unwrap(), at(330.0, 190.0), VIEW.scale);
        assert_eq!(
            view,
            Some(Viewport {
                x: 30.0,
                y: -10.0,
                scale: 2.0
            })
        );
    }

    #[test]
    fn a_node_dragged_moves_with_its_group_and_a_click_selects_it_alone() {
        let group = Selection::nodes(vec![s("a"), s("b")]);
        let (gesture, commands) = press(
            Hit::Node(s("a")),
            at(0.0, 0.0),
            Keys::default(),
            &group,
            VIEW,
        );
        assert_eq!(
            commands[1],
            Command::Select(Selection::nodes(vec![s("b"), s("a")]))
        );
        let (moved, _) = drag(gesture.clone().unwrap(), at(40.0, 20.0), VIEW.scale);
        let keys = Keys {
            alt: true,
            ..Keys::default()
        };
        assert_eq!(
            release(moved, at(40.0, 20.0), keys, &nowhere, &|p| p),
            vec![Command::Move {
                pressed: s("a"),
                ids: vec![s("b"), s("a")],
                by: (20.0, 10.0),
                free: true
            }]
        );
        assert_eq!(
            release(
                gesture.unwrap(),
                at(0.0, 0.0),
                Keys::default(),
                &nowhere,
                &|p| p
            ),
            vec![Command::Select(Selection::node("a"))]
        );
        // Shift toggles, and starts nothing.
        let shift = Keys {
            shift: true,
            ..Keys::default()
        };
        let (gesture, commands) = press(Hit::Node(s("c")), at(0.0, 0.0), shift, &group, VIEW);
        assert_eq!(gesture, None);
        assert_eq!(commands[1], Command::Toggle(s("c")));
    }

    #[test]
    fn a_wire_from_an_output_connects_forwards_and_from_an_input_backwards() {
        let drop_at = |_: (f64, f64), outputs: bool| {
            Some(if outputs {
                (s("z"), s("out"))
            } else {
                (s("z"), s("in"))
            })
        };
        let forwards = Hit::Port {
            node: s("a"),
            port: s("out"),
            input: false,
        };
        let (gesture, _) = press(
            forwards,
            at(0.0, 0.0),
            Keys::default(),
            &Selection::none(),
            VIEW,
        );
        assert_eq!(
            release(
                gesture.unwrap(),
                at(9.0, 9.0),
                Keys::default(),
                &drop_at,
                &|p| p
            ),
            vec![Command::Connect {
                from: (s("a"), s("out")),
                to: (s("z"), s("in")),
                at: (-91.0, -41.0)
            }]
        );
        // Issue #31: a press on an input port starts a wire backwards, never moves the node.
        let backwards = Hit::Port {
            node: s("a"),
            port: s("in"),
            input: true,
        };
        let (gesture, commands) = press(
            backwards,
            at(0.0, 0.0),
            Keys::default(),
            &Selection::none(),
            VIEW,
        );
        assert!(matches!(
            gesture,
            Some(Gesture::Wire {
                backwards: true,
                ..
            })
        ));
        assert!(!commands.iter().any(|c| matches!(c, Command::Move { .. })));
        assert_eq!(
            release(
                gesture.unwrap(),
                at(9.0, 9.0),
                Keys::default(),
                &drop_at,
                &|p| p
            ),
            vec![Command::Connect {
                from: (s("z"), s("out")),
                to: (s("a"), s("in")),
                at: (-91.0, -41.0)
            }]
        );
        // Dropped on nothing: refused where it was let go.
        let (gesture, _) = press(
            Hit::Port {
                node: s("a"),
                port: s("out"),
                input: false,
            },
            at(0.0, 0.0),
            Keys::default(),
            &Selection::none(),
            VIEW,
        );
        assert!(matches!(
            release(
                gesture.unwrap(),
                at(150.0, 90.0),
                Keys::default(),
                &nowhere,
                &|p| p
            )[..],
            [Command::Refuse((50.0, 40.0), _)]
        ));
    }

    #[test]
    fn shift_dragging_the_canvas_draws_a_box_and_a_wire_is_selected_alone() {
        let shift = Keys {
            shift: true,
            ..Keys::default()
        };
        let (gesture, _) = press(Hit::Empty, at(100.0, 50.0), shift, &Selection::none(), VIEW);
        let (boxed, _) = drag(gesture.unwrap(), at(300.0, 250.0), VIEW.scale);
        let half = |(x, y): (f64, f64)| (x / 2.0, y / 2.0);
        assert_eq!(
            release(boxed, at(300.0, 250.0), shift, &nowhere, &half),
            vec![Command::SelectBox((0.0, 0.0), (100.0, 100.0))]
        );
        let ends = (s("a"), s("b"));
        let (gesture, commands) = press(
            Hit::Wire(ends.clone()),
            at(0.0, 0.0),
            Keys::default(),
            &Selection::node("a"),
            VIEW,
        );
        assert_eq!(gesture, None);
        assert_eq!(commands[1], Command::Select(Selection::wire(ends)));
    }
}
