"""Shapes shared by the schema generators (gen-drtl-schema.py)."""


def closed(properties, required=None, description=None, **extra):
    schema = {"type": "object"}
    if description:
        schema["description"] = description
    schema["properties"] = properties
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    schema.update(extra)
    return schema

def ref(name):
    return {"$ref": f"#/definitions/{name}"}

def string(description, **extra):
    return {"type": "string", "description": description, **extra}
