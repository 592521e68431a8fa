//! Cases: JSON Lines or CSV of `{id, input, expected?, metadata?}`, each error at line:column.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One case of a dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// The case's id, unique in its dataset.
    pub id: String,
    /// The run's input.
    pub input: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// What a right output is, for the scorers that compare.
    pub expected: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Anything else: `metadata.obligations` lists trace rules for this case.
    pub metadata: Option<Value>,
}

/// Why a dataset cannot be read: where (1-based line and column) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl DatasetError {
    pub(super) fn at(line: usize, column: usize, message: impl Into<String>) -> DatasetError {
        DatasetError {
            line,
            column,
            message: message.into(),
        }
    }
}

const FIELDS: [&str; 4] = ["id", "input", "expected", "metadata"];

/// Reads a dataset by its file name: `.csv` as CSV, anything else as JSON Lines.
pub fn read_cases(name: &str, text: &str) -> Result<Vec<Case>, DatasetError> {
    if name.to_ascii_lowercase().ends_with(".csv") {
        read_csv(text)
    } else {
        read_jsonl(text)
    }
}

/// JSON Lines: one object a line; blank lines are skipped.
pub fn read_jsonl(text: &str) -> Result<Vec<Case>, DatasetError> {
    let mut cases = Vec::new();
    let mut ids = BTreeSet::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line)
            .map_err(|e| DatasetError::at(number, e.column().max(1), json_problem(&e)))?;
        let Value::Object(fields) = value else {
            return Err(DatasetError::at(
                number,
                indent(line),
                "expected a JSON object {\"id\", \"input\", \"expected\"?, \"metadata\"?}",
            ));
        };
        let case = case_of(fields, |_| indent(line))
            .map_err(|(column, message)| DatasetError::at(number, column, message))?;
        unique(&mut ids, &case.id).map_err(|m| DatasetError::at(number, indent(line), m))?;
        cases.push(case);
    }
    Ok(cases)
}

/// CSV with a header row naming the columns `id`, `input` and optionally `expected`,
/// `metadata`. A cell is JSON when it reads as JSON, else the text itself (so `hello` is the
/// string "hello" and `{"q": 1}` an object; write `"42"` for the string 42).
pub fn read_csv(text: &str) -> Result<Vec<Case>, DatasetError> {
    let records = super::csv::records(text)?;
    let Some((header, rows)) = records.split_first() else {
        return Err(DatasetError::at(
            1,
            1,
            "expected a header row naming the columns id, input, expected, metadata",
        ));
    };
    for cell in &header.cells {
        if !FIELDS.contains(&cell.text.as_str()) {
            return Err(DatasetError::at(
                header.line,
                cell.column,
                format!(
                    "unknown column `{}`: expected one of id, input, expected, metadata",
                    cell.text
                ),
            ));
        }
    }
    for required in ["id", "input"] {
        if !header.cells.iter().any(|c| c.text == required) {
            return Err(DatasetError::at(
                header.line,
                1,
                format!("the header has no `{required}` column"),
            ));
        }
    }
    let mut cases = Vec::new();
    let mut ids = BTreeSet::new();
    for row in rows {
        if row.cells.len() != header.cells.len() {
            return Err(DatasetError::at(
                row.line,
                1,
                format!(
                    "expected {} cells as in the header, found {}",
                    header.cells.len(),
                    row.cells.len()
                ),
            ));
        }
        let mut fields = Map::new();
        for (name, cell) in header.cells.iter().zip(&row.cells) {
            let value = if name.text == "id" {
                Value::String(cell.text.clone())
            } else {
                serde_json::from_str(&cell.text)
                    .unwrap_or_else(|_| Value::String(cell.text.clone()))
            };
            if !(name.text != "id" && cell.text.is_empty() && name.text != "input") {
                fields.insert(name.text.clone(), value);
            }
        }
        let column_of = |field: &str| {
            header
                .cells
                .iter()
                .position(|c| c.text == field)
                .map_or(1, |i| row.cells[i].column)
        };
        let case = case_of(fields, column_of)
            .map_err(|(column, message)| DatasetError::at(row.line, column, message))?;
        unique(&mut ids, &case.id).map_err(|m| DatasetError::at(row.line, column_of("id"), m))?;
        cases.push(case);
    }
    Ok(cases)
}

fn case_of(
    mut fields: Map<String, Value>,
    column_of: impl Fn(&str) -> usize,
) -> Result<Case, (usize, String)> {
    if let Some(unknown) = fields.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err((
            column_of(unknown),
            format!("unknown field `{unknown}`: expected id, input, expected, metadata"),
        ));
    }
    let id = match fields.remove("id") {
        Some(Value::String(id)) if !id.trim().is_empty() => id,
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => {
            return Err((
                column_of("id"),
                "`id` must be a non-empty string or a number".to_owned(),
            ))
        }
        None => return Err((column_of("id"), "the case has no `id`".to_owned())),
    };
    let Some(input) = fields.remove("input") else {
        return Err((column_of("input"), format!("case `{id}` has no `input`")));
    };
    Ok(Case {
        id,
        input,
        expected: fields.remove("expected"),
        metadata: fields.remove("metadata"),
    })
}

fn unique(ids: &mut BTreeSet<String>, id: &str) -> Result<(), String> {
    if ids.insert(id.to_owned()) {
        Ok(())
    } else {
        Err(format!("the id `{id}` is used by an earlier case"))
    }
}

fn indent(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).count() + 1
}

fn json_problem(error: &serde_json::Error) -> String {
    let text = error.to_string();
    // serde_json ends its messages with " at line L column C": the place is said before.
    match text.rfind(" at line ") {
        Some(at) => format!("invalid JSON: {}", &text[..at]),
        None => format!("invalid JSON: {text}"),
    }
}
