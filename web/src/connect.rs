//! The edit a wire drawn from an output port to an input port asks for: a `needs` entry between
//! LOGIC.md steps, an edge between DRTL nodes. Whether it may be made (no self-wire, only steps
//! in LOGIC.md, port types that fit, no `needs` cycle) is core's `Edit::Connect` to decide; the
//! studio shows the reason it gives.

use logicmd::edit::Edit;
use logicmd::graph::Graph;

/// One end of a wire: a node id and the port grabbed.
pub struct End<'a> {
    pub node: &'a str,
    pub port: &'a str,
}

/// The connect edit for a wire from `from` (an output port) to `to` (an input port).
pub fn connection(graph: &Graph, from: End, to: End) -> Result<Edit, String> {
    let name = |id: &str| {
        graph
            .node(id)
            .map(|n| n.name.clone())
            .ok_or_else(|| format!("there is no node `{id}`"))
    };
    Ok(Edit::Connect {
        from: name(from.node)?,
        to: name(to.node)?,
        from_port: Some(from.port.to_owned()),
        to_port: Some(to.port.to_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  a:\n    output_schema: {type: object}\n  b:\n    needs: [a]\n  c:\n    needs: [b]\n    input_schema: {type: string}\n---\n";

    fn graph() -> Graph {
        logicmd::graph::from_document(&logicmd::Document::parse(DOC).document.unwrap())
    }

    fn end<'a>(node: &'a str, port: &'a str) -> End<'a> {
        End { node, port }
    }

    #[test]
    fn a_wire_becomes_a_connect_edit_naming_its_ports() {
        let edit = connection(&graph(), end("step:a", "output"), end("step:b", "in"));
        assert_eq!(
            edit,
            Ok(Edit::Connect {
                from: "a".into(),
                to: "b".into(),
                from_port: Some("output".into()),
                to_port: Some("in".into()),
            })
        );
    }

    /// The rules are core's: the studio shows core's reason for a refused wire.
    #[test]
    fn core_gives_the_reason_for_a_refused_wire() {
        let g = graph();
        let refusal = |from, to| {
            let edit = connection(&g, from, to).unwrap();
            logicmd::edit::apply(DOC, &edit).unwrap_err().message
        };
        assert_eq!(
            refusal(end("step:c", "out"), end("step:a", "in")),
            "`a` would need `c`, but a → b → c already: that is a cycle"
        );
        assert_eq!(
            refusal(end("step:a", "output"), end("step:a", "in")),
            "`a` cannot be connected to itself"
        );
        assert_eq!(
            refusal(end("step:a", "output"), end("step:c", "input")),
            "a `object` output does not fit the `string` input of `c`"
        );
        assert_eq!(
            connection(&g, end("step:x", "out"), end("step:a", "in")),
            Err("there is no node `step:x`".into())
        );
    }
}
