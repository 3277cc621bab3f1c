"""configs/vm/tables.json, the systems.md experiments' tables, as the
generators that write some of their rows read and write it: whole, through
a temporary file beside it, never half-written."""
import json
import os

TABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs", "vm",
                      "tables.json")


def load():
    with open(TABLES) as f:
        return json.load(f)


def save(doc):
    with open(TABLES + ".tmp", "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    os.replace(TABLES + ".tmp", TABLES)
