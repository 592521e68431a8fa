//! What the pointer (or two fingers) are doing on the canvas, and the zoom arithmetic shared by
//! the wheel, trackpad pinches and touch pinches.

use crate::state::Viewport;

/// Zoom stays within these factors. At 0.2 % a chain of 5,000 steps fits a laptop's canvas (the
/// far canvas paints it within a frame; issues #17, #31: Fit fits any document).
pub const MIN_SCALE: f64 = 0.002;
pub const MAX_SCALE: f64 = 4.0;

#[derive(Debug, Clone, PartialEq)]
pub enum Gesture {
    Pan {
        start: (f64, f64),
        origin: Viewport,
    },
    Node {
        id: String,
        /// The other selected nodes, which move with it.
        group: Vec<String>,
        start: (f64, f64),
        dx: f64,
        dy: f64,
    },
    /// A selection box (shift-drag on the empty canvas), corners in canvas pixels.
    Box {
        start: (f64, f64),
        end: (f64, f64),
    },
    /// A wire being drawn from a port: forwards from an output, or backwards from an input
    /// (its loose end then looks for an output).
    Wire {
        from: String,
        /// The port the wire leaves.
        port: String,
        backwards: bool,
        start: (f64, f64),
        end: (f64, f64),
    },
    /// An end of the selected wire dragged to another node ([`super::reattach`]).
    Reattach {
        /// The wire: (source node id, target node id).
        ends: (String, String),
        moving: WireEnd,
        /// The end that stays, and the pointer, in graph coordinates.
        fixed: (f64, f64),
        end: (f64, f64),
    },
    /// Two touch points: the distance between them scales, their midpoint pans.
    Pinch {
        distance: f64,
        midpoint: (f64, f64),
        origin: Viewport,
    },
}

/// Which end of a wire is moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireEnd {
    Source,
    Target,
}

/// What a wheel event asks for. A trackpad's two-finger scroll has a horizontal component and
/// pans (as in n8n and Figma); Shift+wheel pans sideways, as browsers scroll pages; a pinch
/// (Ctrl, small deltas: zoom faster) and a plain vertical wheel zoom around the pointer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WheelIntent {
    /// Multiply the scale by this.
    Zoom(f64),
    /// Move the view by this many canvas pixels (the graph moves the other way).
    Pan(f64, f64),
}

/// The intent of a wheel event with pixel deltas `dx`, `dy`.
pub fn wheel_intent(dx: f64, dy: f64, ctrl: bool, shift: bool) -> WheelIntent {
    if ctrl {
        WheelIntent::Zoom((-dy * 0.01).exp())
    } else if shift {
        WheelIntent::Pan(if dx == 0.0 { dy } else { dx }, 0.0)
    } else if dx != 0.0 {
        WheelIntent::Pan(dx, dy)
    } else {
        WheelIntent::Zoom((-dy * 0.0015).exp())
    }
}

/// `view` scaled to `scale` (clamped) keeping the graph point under `pointer` (canvas pixels)
/// where it is.
pub fn zoom_at(view: Viewport, pointer: (f64, f64), scale: f64) -> Viewport {
    let scale = scale.clamp(MIN_SCALE, MAX_SCALE);
    let graph_point = (
        (pointer.0 - view.x) / view.scale,
        (pointer.1 - view.y) / view.scale,
    );
    Viewport {
        x: pointer.0 - graph_point.0 * scale,
        y: pointer.1 - graph_point.1 * scale,
        scale,
    }
}

/// The view during a pinch that started at `origin` with two points `distance` apart around
/// `midpoint`, now `now_distance` apart around `now_midpoint`: what was under the first
/// midpoint follows the fingers.
pub fn pinch(
    origin: Viewport,
    distance: f64,
    midpoint: (f64, f64),
    now_distance: f64,
    now_midpoint: (f64, f64),
) -> Viewport {
    let factor = if distance > 0.0 {
        now_distance / distance
    } else {
        1.0
    };
    let zoomed = zoom_at(origin, midpoint, origin.scale * factor);
    Viewport {
        x: zoomed.x + now_midpoint.0 - midpoint.0,
        y: zoomed.y + now_midpoint.1 - midpoint.1,
        ..zoomed
    }
}

pub fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

pub fn midpoint(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_horizontal_scroll_or_shift_pans_and_a_pinch_or_plain_wheel_zooms() {
        assert_eq!(
            wheel_intent(30.0, 4.0, false, false),
            WheelIntent::Pan(30.0, 4.0)
        );
        assert_eq!(
            wheel_intent(0.0, 50.0, false, true),
            WheelIntent::Pan(50.0, 0.0)
        );
        assert_eq!(wheel_intent(0.0, 0.0, true, false), WheelIntent::Zoom(1.0));
        assert!(matches!(wheel_intent(0.0, 100.0, false, false), WheelIntent::Zoom(f) if f < 1.0));
        assert!(matches!(wheel_intent(0.0, -10.0, true, false), WheelIntent::Zoom(f) if f > 1.0));
    }

    fn graph_point(view: Viewport, screen: (f64, f64)) -> (f64, f64) {
        (
            (screen.0 - view.x) / view.scale,
            (screen.1 - view.y) / view.scale,
        )
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer() {
        let view = Viewport {
            x: 30.0,
            y: -20.0,
            scale: 0.8,
        };
        let pointer = (400.0, 250.0);
        let zoomed = zoom_at(view, pointer, 2.0);
        assert_eq!(zoomed.scale, 2.0);
        let (a, b) = (graph_point(view, pointer), graph_point(zoomed, pointer));
        assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9);
        assert_eq!(zoom_at(view, pointer, 100.0).scale, MAX_SCALE);
        assert_eq!(zoom_at(view, pointer, 0.0).scale, MIN_SCALE);
    }

    #[test]
    fn a_pinch_scales_by_the_finger_distance_and_follows_the_midpoint() {
        let origin = Viewport::default();
        let start = midpoint((100.0, 100.0), (200.0, 100.0));
        let under = graph_point(origin, start);
        let now = midpoint((50.0, 150.0), (250.0, 150.0));
        let view = pinch(origin, 100.0, start, 200.0, now);
        assert!((view.scale - 2.0 * origin.scale).abs() < 1e-9);
        let followed = graph_point(view, now);
        assert!((followed.0 - under.0).abs() < 1e-9 && (followed.1 - under.1).abs() < 1e-9);
    }
}
