//! The far picture is painted once and reused while the view only moves: a pan or a zoom shows the
//! same bitmap displaced and scaled (a CSS transform: the compositor's work, no repaint), as map
//! viewers show their tiles during a gesture. It is painted again when the bitmap would no longer
//! hold what is on screen, when it is scaled so much that it would blur or thin out, and once the
//! gesture settles (names crisp at rest). Pure geometry here, so it can be tested without a browser.

use crate::canvas::cull::Rect;
use crate::minimap::in_view;
use crate::state::Viewport;

/// How far the picture may be scaled (either way) before it is painted again: map viewers show
/// the previous level's tiles scaled up to twice during a zoom, for the same reason.
const MAX_STRETCH: f64 = 2.0;

/// A painted picture: the view it was painted at, the size of the pane, and the margin (CSS px)
/// painted beyond each side of the pane, so that a pan shows what was beside the view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Picture {
    pub view: Viewport,
    pub size: (f64, f64),
    pub margin: f64,
}

/// The margin (CSS px) painted beyond each side of a pane of `size`: a quarter of its smaller side,
/// so the bitmap is at most 2.25 times the pane's pixels.
pub fn margin(size: (f64, f64)) -> f64 {
    (size.0.min(size.1) / 4.0).round().max(0.0)
}

/// The part of the graph a pane of `size` shows through `view`.
pub fn visible(view: Viewport, size: (f64, f64)) -> Rect {
    let (left, top, right, bottom) = in_view(view, size);
    Rect {
        left,
        top,
        right,
        bottom,
    }
}

impl Picture {
    /// The part of the graph the bitmap holds: the view and the margin around it.
    pub fn covers(&self) -> Rect {
        let shown = visible(self.view, self.size);
        let grow = self.margin / self.view.scale;
        Rect {
            left: shown.left - grow,
            top: shown.top - grow,
            right: shown.right + grow,
            bottom: shown.bottom + grow,
        }
    }

    /// The CSS transform (translate x, translate y, scale; origin at the bitmap's top-left corner,
    /// which lies `margin` above and left of the pane) that puts the picture where `now` shows it.
    pub fn placement(&self, now: Viewport) -> (f64, f64, f64) {
        let stretch = now.scale / self.view.scale;
        let m = self.margin;
        (
            now.x + m - stretch * (self.view.x + m),
            now.y + m - stretch * (self.view.y + m),
            stretch,
        )
    }

    /// Whether the picture, displaced and scaled, still shows `now` truly: it holds everything
    /// of the graph (within `drawn`, what the painting can touch; `None`: nothing) that `now`
    /// shows, and it is not stretched past [`MAX_STRETCH`] either way.
    pub fn serves(&self, now: Viewport, size: (f64, f64), drawn: Option<Rect>) -> bool {
        if size != self.size {
            return false;
        }
        let stretch = now.scale / self.view.scale;
        if !(1.0 / MAX_STRETCH..=MAX_STRETCH).contains(&stretch) {
            return false;
        }
        let Some(drawn) = drawn else {
            return true;
        };
        let shown = visible(now, size);
        let needed = Rect {
            left: shown.left.max(drawn.left),
            top: shown.top.max(drawn.top),
            right: shown.right.min(drawn.right),
            bottom: shown.bottom.min(drawn.bottom),
        };
        if needed.left > needed.right || needed.top > needed.bottom {
            return true;
        }
        let covers = self.covers();
        covers.left <= needed.left
            && covers.top <= needed.top
            && needed.right <= covers.right
            && needed.bottom <= covers.bottom
    }
}

/// Where the far painting can put pixels: the nodes' bounds grown by what sticks out of a box
/// (badges of up to 11 graph units or 3 px, lines' width, a wire's last pixels) at zoom `scale`.
pub fn drawn_bounds(nodes: Option<Rect>, scale: f64) -> Option<Rect> {
    let nodes = nodes?;
    let grow = 12.0 + 4.0 / scale.max(1e-3);
    Some(Rect {
        left: nodes.left - grow,
        top: nodes.top - grow,
        right: nodes.right + grow,
        bottom: nodes.bottom + grow,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: (f64, f64) = (1000.0, 800.0);

    fn view(x: f64, y: f64, scale: f64) -> Viewport {
        Viewport { x, y, scale }
    }

    fn picture(at: Viewport) -> Picture {
        Picture {
            view: at,
            size: SIZE,
            margin: margin(SIZE),
        }
    }

    /// Where graph point `g` lands on the pane when the bitmap painted at `picture` is shown with
    /// its placement for `now`: the bitmap's pixel for `g`, moved by the CSS transform.
    fn shown_at(picture: &Picture, now: Viewport, g: (f64, f64)) -> (f64, f64) {
        let m = picture.margin;
        let bitmap = (
            g.0 * picture.view.scale + picture.view.x + m,
            g.1 * picture.view.scale + picture.view.y + m,
        );
        let (tx, ty, k) = picture.placement(now);
        (-m + tx + k * bitmap.0, -m + ty + k * bitmap.1)
    }

    #[test]
    fn the_displaced_picture_puts_every_graph_point_where_the_view_shows_it() {
        let painted = picture(view(-300.0, 120.0, 0.1));
        for now in [
            view(-300.0, 120.0, 0.1),
            view(-250.0, 90.0, 0.1),
            view(40.0, -700.0, 0.17),
            view(-900.0, 300.0, 0.06),
        ] {
            for g in [(0.0, 0.0), (5000.0, -2000.0), (-1234.5, 678.9)] {
                let (x, y) = shown_at(&painted, now, g);
                let want = (g.0 * now.scale + now.x, g.1 * now.scale + now.y);
                assert!(
                    (x - want.0).abs() < 1e-6 && (y - want.1).abs() < 1e-6,
                    "{g:?} at {now:?}: {:?} != {want:?}",
                    (x, y)
                );
            }
        }
        // Unmoved, the picture is where it was painted.
        assert_eq!(painted.placement(painted.view), (0.0, 0.0, 1.0));
    }

    #[test]
    fn a_pan_within_the_margin_reuses_the_picture_and_beyond_it_paints_again() {
        let at = view(0.0, 0.0, 0.1);
        let painted = picture(at);
        let graph = Some(Rect {
            left: -1e6,
            top: -1e6,
            right: 1e6,
            bottom: 1e6,
        });
        // The margin is 200 px: a 150 px pan shows what was painted beside the view.
        assert!(painted.serves(view(150.0, -150.0, 0.1), SIZE, graph));
        assert!(!painted.serves(view(250.0, 0.0, 0.1), SIZE, graph));
        // A new pane size always paints again.
        assert!(!painted.serves(at, (1001.0, 800.0), graph));
    }

    #[test]
    fn when_the_picture_holds_the_whole_graph_any_pan_or_zoom_out_reuses_it_up_to_the_stretch() {
        // The graph: 0..10000 × 0..5000, all on screen at 5 % (500 × 250 px of a 1000 × 800 pane).
        let nodes = Rect {
            left: 0.0,
            top: 0.0,
            right: 10_000.0,
            bottom: 5_000.0,
        };
        let painted = picture(view(100.0, 100.0, 0.05));
        let drawn = drawn_bounds(Some(nodes), 0.05);
        assert!(painted.serves(view(900.0, 700.0, 0.05), SIZE, drawn));
        assert!(painted.serves(view(400.0, 300.0, 0.026), SIZE, drawn));
        // Zoomed in (less of it shown) or out, as far as the stretch allows.
        assert!(painted.serves(view(0.0, 0.0, 0.099), SIZE, drawn));
        assert!(!painted.serves(view(0.0, 0.0, 0.101), SIZE, drawn));
        assert!(!painted.serves(view(100.0, 100.0, 0.024), SIZE, drawn));
        // Zoomed in on a part that was painted beyond the margin's reach: not held, painted again.
        let wide = Rect {
            left: 0.0,
            top: 0.0,
            right: 100_000.0,
            bottom: 5_000.0,
        };
        let far_right = view(-60_000.0 * 0.06, 0.0, 0.06);
        assert!(!painted.serves(far_right, SIZE, drawn_bounds(Some(wide), 0.06)));
        // An empty graph: nothing to show, nothing to paint.
        assert!(painted.serves(view(5000.0, 0.0, 0.05), SIZE, None));
    }
}
