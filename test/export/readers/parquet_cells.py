"""Reads a Parquet file with pyarrow (an independent implementation of the format, not DuckDB, which
writes the files) and prints its columns' types, its key-value metadata and every cell raw, as the
JavaScript reader (parquet-cells.ts) gives them: doubles as numbers, days as days since 1970-01-01,
instants as epoch microseconds and 64-bit integers as {"bigint": "digits"}, maps as objects."""
import json
import math
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq


def physical_and_logical(field, parquet_schema):
    t = field.type
    if pa.types.is_map(t):
        return None, "MAP"
    column = parquet_schema.column(parquet_schema.names.index(field.name))
    logical = str(column.logical_type) if column.logical_type.type != "NONE" else ""
    return column.physical_type, logical


def cell(value):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return {"float": repr(value)}
        return value
    if isinstance(value, int):
        return {"bigint": str(value)}
    if isinstance(value, list):
        return {k: v for k, v in value}
    raise TypeError(f"unexpected cell {value!r}")


def main(path):
    pf = pq.ParquetFile(path)
    table = pf.read()
    schema = pf.schema
    out_columns = []
    arrays = []
    for field in table.schema:
        physical, logical = physical_and_logical(field, schema)
        out_columns.append({"name": field.name, "physical": physical, "logical": logical})
        col = table.column(field.name)
        if pa.types.is_timestamp(field.type):
            col = pc.cast(col, pa.int64())
        elif pa.types.is_date32(field.type):
            col = pc.cast(col, pa.int32())
        arrays.append((field.name, field.type, col.to_pylist()))
    rows = []
    for r in range(table.num_rows):
        row = {}
        for name, t, values in arrays:
            v = values[r]
            # Days fit a JavaScript number; instants and 64-bit integers come as digits.
            row[name] = v if pa.types.is_date32(t) else cell(v)
        rows.append(row)
    meta = {k.decode(): v.decode() for k, v in (pf.metadata.metadata or {}).items()}
    json.dump({"columns": out_columns, "rows": rows, "metadata": meta}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
