//! Snap to grid: a dragged node lands on the canvas's 20 px grid, at whole numbers; Alt held
//! while letting go places it freely (still at whole numbers, so the text never gets `x: 12.5`).

/// The grid's spacing in graph units (the dots drawn on the canvas at 100 %).
pub const GRID: f64 = 20.0;

/// The move that puts a node now at `at`, dragged by `by`, on the grid (or just on whole
/// numbers when `free`). A group moves by its pressed node's move, so it keeps its shape.
pub fn snapped_move(at: (f64, f64), by: (f64, f64), free: bool) -> (f64, f64) {
    let land = |v: f64| {
        if free {
            v.round()
        } else {
            (v / GRID).round() * GRID
        }
    };
    (land(at.0 + by.0) - at.0, land(at.1 + by.1) - at.1)
}

/// The spacing of the dots on screen at zoom `scale`: the grid, doubled until the dots are at
/// least 10 px apart (so a far zoom does not fill the canvas with dots).
pub fn dot_spacing(scale: f64) -> f64 {
    let mut spacing = GRID * scale.max(0.01);
    while spacing < 10.0 {
        spacing *= 2.0;
    }
    spacing
}

/// The background size and position that put a dot on every grid point of a view panned to
/// (`x`, `y`) at zoom `scale` (the dot is drawn in the middle of its tile, so the tile starts half a
/// spacing before the point).
pub fn dots_style(scale: f64, x: f64, y: f64) -> String {
    let spacing = dot_spacing(scale);
    let half = spacing / 2.0;
    format!(
        "background-size: {spacing:.2}px {spacing:.2}px; background-position: {:.2}px {:.2}px",
        x - half,
        y - half
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drag_lands_on_the_grid_unless_free() {
        // A laid-out node (y = 142) dragged by an odd offset lands on the nearest grid point.
        let (dx, dy) = snapped_move((280.0, 142.0), (33.0, -7.4), false);
        assert_eq!((280.0 + dx, 142.0 + dy), (320.0, 140.0));
        // Free: where it was let go, at whole numbers.
        let (dx, dy) = snapped_move((280.0, 142.0), (33.3, -7.6), true);
        assert_eq!((280.0 + dx, 142.0 + dy), (313.0, 134.0));
        // Negative places snap too.
        let (dx, dy) = snapped_move((0.0, 0.0), (-31.0, -9.0), false);
        assert_eq!((dx, dy), (-40.0, -0.0));
    }

    #[test]
    fn the_dots_stay_at_least_ten_pixels_apart() {
        assert_eq!(dot_spacing(1.0), 20.0);
        assert_eq!(dot_spacing(2.0), 40.0);
        assert_eq!(dot_spacing(0.5), 10.0);
        assert_eq!(dot_spacing(0.3), 12.0);
        assert_eq!(dot_spacing(0.05), 16.0);
    }

    #[test]
    fn the_dots_sit_on_the_grid_points_of_the_view() {
        // At 100 %, panned by (35, -12): tiles of 20 px, the first dot's tile half a tile earlier.
        assert_eq!(
            dots_style(1.0, 35.0, -12.0),
            "background-size: 20.00px 20.00px; background-position: 25.00px -22.00px"
        );
        // Far out, the dots thin out to at least 10 px apart.
        assert_eq!(
            dots_style(0.3, 0.0, 0.0),
            "background-size: 12.00px 12.00px; background-position: -6.00px -6.00px"
        );
    }
}
