//! Which nodes and wires are drawn: those in (or near) the visible part of the canvas. The DOM
//! then holds what the eye can see, whatever the size of the graph, so the browser's style and
//! layout work per edit and per frame stays small.

use crate::geometry::{NODE_HEIGHT, NODE_WIDTH};
use crate::state::Viewport;

/// A rectangle in graph coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Rect {
    pub fn intersects(&self, other: &Rect) -> bool {
        self.left <= other.right
            && other.left <= self.right
            && self.top <= other.bottom
            && other.top <= self.bottom
    }

    /// The box of a node whose top-left corner is at `(x, y)`.
    pub fn node(x: f64, y: f64) -> Rect {
        Rect {
            left: x,
            top: y,
            right: x + NODE_WIDTH,
            bottom: y + NODE_HEIGHT,
        }
    }

    /// The box a wire between two points may occupy (loops swing out by most of a node width).
    pub fn wire(from: (f64, f64), to: (f64, f64)) -> Rect {
        Rect {
            left: from.0.min(to.0) - NODE_WIDTH,
            top: from.1.min(to.1) - NODE_HEIGHT,
            right: from.0.max(to.0) + NODE_WIDTH,
            bottom: from.1.max(to.1) + NODE_HEIGHT,
        }
    }
}

/// The part of the graph to draw for a canvas of `size` pixels: the visible area grown by half a
/// screen on every side, its edges snapped to a power-of-two grid so that panning changes the
/// drawn set only every so often, not on every frame.
pub fn drawn_window(view: Viewport, size: (f64, f64)) -> Rect {
    let scale = view.scale.max(1e-3);
    let (width, height) = (size.0.max(1.0) / scale, size.1.max(1.0) / scale);
    let (left, top) = (-view.x / scale, -view.y / scale);
    let step = |extent: f64| 2f64.powf((extent / 2.0).max(1.0).log2().ceil());
    let (step_x, step_y) = (step(width), step(height));
    Rect {
        left: ((left - width / 2.0) / step_x).floor() * step_x,
        top: ((top - height / 2.0) / step_y).floor() * step_y,
        right: ((left + width * 1.5) / step_x).ceil() * step_x,
        bottom: ((top + height * 1.5) / step_y).ceil() * step_y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(x: f64, y: f64, scale: f64) -> Viewport {
        Viewport { x, y, scale }
    }

    #[test]
    fn the_window_covers_the_screen_and_a_margin() {
        let window = drawn_window(view(0.0, 0.0, 1.0), (1000.0, 800.0));
        assert!(window.left <= -500.0 && window.right >= 1500.0);
        assert!(window.top <= -400.0 && window.bottom >= 1200.0);
        // Zoomed out to a quarter, four times as much of the graph is visible.
        let far = drawn_window(view(0.0, 0.0, 0.25), (1000.0, 800.0));
        assert!(far.right >= 4000.0 * 1.5 && far.bottom >= 3200.0 * 1.5);
    }

    #[test]
    fn small_pans_keep_the_same_window() {
        let first = drawn_window(view(-3000.0, -2000.0, 1.0), (1000.0, 800.0));
        let moved = drawn_window(view(-3010.0, -2004.0, 1.0), (1000.0, 800.0));
        assert_eq!(first, moved);
        // Far enough, it moves, and still covers the screen.
        let far = drawn_window(view(-6000.0, -2000.0, 1.0), (1000.0, 800.0));
        assert_ne!(first, far);
        assert!(far.left <= 6000.0 && far.right >= 7000.0);
    }

    #[test]
    fn nodes_and_wires_are_drawn_when_they_touch_the_window() {
        let window = drawn_window(view(0.0, 0.0, 1.0), (1000.0, 800.0));
        assert!(Rect::node(100.0, 100.0).intersects(&window));
        assert!(!Rect::node(100.0, 50_000.0).intersects(&window));
        // A wire from far above to far below crosses the screen.
        assert!(Rect::wire((100.0, -50_000.0), (100.0, 50_000.0)).intersects(&window));
        assert!(!Rect::wire((100.0, 40_000.0), (100.0, 50_000.0)).intersects(&window));
    }
}
