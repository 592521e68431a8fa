//! The canvas's pointer events, glued to the pure controller ([`super::control`]): the DOM under
//! a press becomes a [`Hit`], client pixels become [`Point`]s, and the commands that come back
//! are carried out ([`super::commands`]). Two touch points pinch-zoom.

use std::collections::HashMap;

use leptos::prelude::*;
use logicmd::graph::Graph;
use wasm_bindgen::JsCast;

use super::commands::{self, Refusal};
use super::control::{self, Hit, Keys, Point};
use super::gesture::{distance, midpoint, pinch, wheel_intent, zoom_at, Gesture, WheelIntent};
use super::{reattach, target, Sides};
use crate::state::{Studio, Viewport};

/// What the pointer handlers share.
#[derive(Clone, Copy)]
pub struct Pointer {
    pub studio: Studio,
    pub gesture: RwSignal<Option<Gesture>>,
    pub svg: NodeRef<leptos::svg::Svg>,
    pub refusal: Refusal,
    pub sides: Sides,
    /// Far out, nodes are painted pixels: a press finds its node by place.
    pub far: Memo<bool>,
    /// Active touch points (pointer id → client position), for two-finger pinches.
    pub touches: StoredValue<HashMap<i32, (f64, f64)>>,
}

impl Pointer {
    /// Client pixels → pixels from the canvas's corner.
    pub fn to_canvas(self, client: (f64, f64)) -> (f64, f64) {
        let rect = self
            .svg
            .get_untracked()
            .map(|svg| svg.get_bounding_client_rect());
        let (left, top) = rect.map_or((0.0, 0.0), |r| (r.left(), r.top()));
        (client.0 - left, client.1 - top)
    }

    /// Canvas pixels → graph units.
    fn canvas_to_graph(self, (x, y): (f64, f64)) -> (f64, f64) {
        let view = self.studio.viewport.get_untracked();
        ((x - view.x) / view.scale, (y - view.y) / view.scale)
    }

    pub fn to_graph(self, client: (f64, f64)) -> (f64, f64) {
        self.canvas_to_graph(self.to_canvas(client))
    }

    fn point(self, ev: &web_sys::MouseEvent) -> Point {
        let client = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        let canvas = self.to_canvas(client);
        Point {
            client,
            canvas,
            graph: self.canvas_to_graph(canvas),
        }
    }

    fn keys(ev: &web_sys::MouseEvent) -> Keys {
        Keys {
            shift: ev.shift_key(),
            ctrl: ev.ctrl_key() || ev.meta_key(),
            alt: ev.alt_key(),
        }
    }

    fn graph<T>(self, read: impl FnOnce(&Graph) -> Option<T>) -> Option<T> {
        self.studio
            .graph
            .with_untracked(|g| g.as_deref().and_then(read))
    }

    /// What the press at `at` landed on.
    fn hit(self, target: Option<&web_sys::Element>, at: Point) -> Hit {
        let attribute = |selector: &str, name: &str| {
            target
                .and_then(|t| t.closest(selector).ok().flatten())
                .and_then(|e| e.get_attribute(name))
        };
        if let Some(hit) = reattach::grab(self.studio, target, self.sides) {
            return hit;
        }
        if let Some(port) = attribute("[data-port]", "data-port") {
            let (node, port, input) = split_port(&port);
            return Hit::Port { node, port, input };
        }
        let painted = || {
            self.far
                .get_untracked()
                .then(|| self.graph(|g| target::node_under(g, at.graph, 0.0).map(|n| n.id.clone())))
                .flatten()
        };
        if let Some(id) = attribute("[data-node-id]", "data-node-id").or_else(painted) {
            return Hit::Node(id);
        }
        let wire = attribute("[data-edge-from]", "data-edge-from")
            .zip(attribute("[data-edge-from]", "data-edge-to"));
        match wire {
            Some(ends) => Hit::Wire(ends),
            None => Hit::Empty,
        }
    }

    fn capture(self, ev: &web_sys::PointerEvent) {
        if let Some(svg) = self.svg.get_untracked() {
            let _ = svg.set_pointer_capture(ev.pointer_id());
        }
    }

    /// Two touch points in canvas pixels, while at least two fingers are down.
    fn touch_pair(self) -> Option<((f64, f64), (f64, f64))> {
        let points: Vec<(f64, f64)> = self.touches.with_value(|t| t.values().copied().collect());
        match points[..] {
            [a, b, ..] => Some((self.to_canvas(a), self.to_canvas(b))),
            _ => None,
        }
    }

    pub fn down(self, ev: web_sys::PointerEvent) {
        let at = self.point(&ev);
        if ev.pointer_type() == "touch" {
            self.touches.update_value(|t| {
                t.insert(ev.pointer_id(), at.client);
            });
            if let Some((a, b)) = self.touch_pair() {
                self.gesture.set(Some(Gesture::Pinch {
                    distance: distance(a, b),
                    midpoint: midpoint(a, b),
                    origin: self.studio.viewport.get_untracked(),
                }));
                return;
            }
        }
        if ev.button() != 0 {
            return;
        }
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let hit = self.hit(target.as_ref(), at);
        let selection = self.studio.selection.get_untracked();
        let view = self.studio.viewport.get_untracked();
        let (gesture, commands) = control::press(hit, at, Self::keys(&ev), &selection, view);
        commands::run(self.studio, commands, self.refusal);
        if gesture.is_some() {
            self.capture(&ev);
            self.gesture.set(gesture);
        }
    }

    pub fn moved(self, ev: web_sys::PointerEvent) {
        let at = self.point(&ev);
        if ev.pointer_type() == "touch" {
            self.touches.update_value(|t| {
                if let Some(point) = t.get_mut(&ev.pointer_id()) {
                    *point = at.client;
                }
            });
        }
        let Some(current) = self.gesture.get_untracked() else {
            return;
        };
        if let Gesture::Pinch {
            distance: start,
            midpoint: centre,
            origin,
        } = current
        {
            if let Some((a, b)) = self.touch_pair() {
                let view = pinch(origin, start, centre, distance(a, b), midpoint(a, b));
                self.studio.viewport.set(view);
            }
            return;
        }
        let scale = self.studio.viewport.get_untracked().scale;
        let (next, view) = control::drag(current, at, scale);
        if let Some(view) = view {
            self.studio.viewport.set(view);
        }
        self.gesture.set(Some(next));
    }

    pub fn up(self, ev: web_sys::PointerEvent) {
        self.touches.update_value(|t| {
            t.remove(&ev.pointer_id());
        });
        let Some(finished) = self.gesture.get_untracked() else {
            return;
        };
        self.gesture.set(None);
        let at = self.point(&ev);
        let sideways = self.sides.get_untracked();
        let drop_at = |point: (f64, f64), outputs: bool| {
            self.graph(|g| {
                if outputs {
                    target::drop_source(g, point, sideways)
                } else {
                    target::drop_target(g, point, sideways)
                }
            })
        };
        let commands = control::release(finished, at, Self::keys(&ev), &drop_at, &|p| {
            self.canvas_to_graph(p)
        });
        commands::run(self.studio, commands, self.refusal);
    }

    pub fn wheel(self, ev: web_sys::WheelEvent) {
        ev.prevent_default();
        let pointer = self.to_canvas((f64::from(ev.client_x()), f64::from(ev.client_y())));
        // Line and page deltas (some mice) count as pixels of a 16 px line.
        let unit = if ev.delta_mode() == 0 { 1.0 } else { 16.0 };
        let intent = wheel_intent(
            ev.delta_x() * unit,
            ev.delta_y() * unit,
            ev.ctrl_key() || ev.meta_key(),
            ev.shift_key(),
        );
        self.studio.viewport.update(|view| {
            *view = match intent {
                WheelIntent::Zoom(factor) => zoom_at(*view, pointer, view.scale * factor),
                WheelIntent::Pan(dx, dy) => Viewport {
                    x: view.x - dx,
                    y: view.y - dy,
                    ..*view
                },
            };
        });
    }

    /// How far node `id` is being dragged (graph units), with the group it moves with.
    pub fn offset_of(self, id: &str) -> (f64, f64) {
        self.gesture.with(|g| match g {
            Some(Gesture::Node {
                id: moving,
                group,
                dx,
                dy,
                ..
            }) if moving == id || group.iter().any(|g| g == id) => (*dx, *dy),
            _ => (0.0, 0.0),
        })
    }
}

/// `node-id:port:in` → (node id, port, whether it is an input); node ids contain `:` themselves.
fn split_port(data: &str) -> (String, String, bool) {
    let mut parts = data.rsplitn(3, ':');
    let input = parts.next() == Some("in");
    let port = parts.next().unwrap_or_default().to_owned();
    let node = parts.next().unwrap_or_default().to_owned();
    (node, port, input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_names_its_node_its_port_and_its_side() {
        assert_eq!(
            split_port("step:a:out:out"),
            ("step:a".into(), "out".into(), false)
        );
        assert_eq!(
            split_port("drtl:x:in:in"),
            ("drtl:x".into(), "in".into(), true)
        );
    }
}
