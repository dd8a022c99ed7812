"""Reads a Portolan .xlsx with openpyxl (types, formats, values) and the sheet XML (exact serials),
and prints, per data cell, the text the cell stands for under the export's documented rules:
numbers through their format's decimals (thousands commas only where the format has the explicit
negative section), date cells as yyyy-MM-dd, date-times as Unix seconds with the decimals the format
marks (6 unless it ends in empty literals), text as is. Written independently of the app's code."""
import json
import re
import sys
import zipfile
import xml.etree.ElementTree as ET
from decimal import Decimal, ROUND_HALF_UP
from fractions import Fraction

import openpyxl

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}


def col_index(ref):
    n = 0
    for ch in ref:
        if ch.isalpha():
            n = n * 26 + (ord(ch.upper()) - 64)
        else:
            break
    return n - 1


def raw_serials(path, sheet_file):
    """The <v> text of every number cell, by (row, column), from the sheet XML itself."""
    out = {}
    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read(sheet_file))
    for row in root.iter("{%s}row" % NS["m"]):
        r = int(row.get("r"))
        c = -1
        for cell in row.findall("m:c", NS):
            ref = cell.get("r")
            c = col_index(ref) if ref else c + 1
            v = cell.find("m:v", NS)
            if v is not None and cell.get("t") in (None, "n"):
                out[(r, c)] = v.text
    return out


def number_text(value_text, fmt):
    sections = fmt.split(";")
    m = re.fullmatch(r"#,##0(?:\.(0+))?", sections[0])
    if not m:
        return value_text
    decimals = len(m.group(1) or "")
    grouped = len(sections) == 2 and sections[1] == "-" + sections[0]
    d = Decimal(value_text).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return f"{d:,.{decimals}f}" if grouped else f"{d:.{decimals}f}"


def epoch_text(serial_text, fmt):
    m = re.search(r'((?:"")+)$', fmt)
    decimals = len(m.group(1)) // 2 - 1 if m else 6
    # The cell holds a double: its exact binary value, not the shortest decimal that names it.
    serial = Fraction(float(serial_text))
    seconds = (serial - 25569) * 86400
    scaled = seconds * 10**decimals
    units = int(scaled + Fraction(1, 2)) if scaled >= 0 else -int(-scaled + Fraction(1, 2))
    sign = "-" if units < 0 else ""
    digits = str(abs(units)).rjust(decimals + 1, "0")
    whole, frac = digits[: len(digits) - decimals], digits[len(digits) - decimals :]
    return sign + whole + ("." + frac if decimals else "")


def main(path):
    wb = openpyxl.load_workbook(path)
    sheet_files = {}
    with zipfile.ZipFile(path) as z:
        rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        targets = {r.get("Id"): r.get("Target") for r in rels}
        book = ET.fromstring(z.read("xl/workbook.xml"))
        for s in book.iter("{%s}sheet" % NS["m"]):
            rid = s.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
            sheet_files[s.get("name")] = "xl/" + targets[rid].lstrip("/").replace("xl/", "", 1)
    result = {}
    for name in wb.sheetnames:
        ws = wb[name]
        if name == "Query":
            result[name] = [[c.value for c in row] for row in ws.iter_rows()]
            continue
        raw = raw_serials(path, sheet_files[name])
        rows = []
        for row in ws.iter_rows():
            cells = []
            for cell in row:
                v = cell.value
                key = (cell.row, cell.column - 1)
                fmt = cell.number_format
                if v is None:
                    cells.append({"t": "empty", "text": ""})
                elif cell.is_date:
                    if "h" in fmt:
                        cells.append({"t": "datetime", "fmt": fmt, "text": epoch_text(raw[key], fmt), "ms": v.isoformat()})
                    else:
                        cells.append({"t": "date", "fmt": fmt, "text": v.strftime("%Y-%m-%d")})
                elif isinstance(v, (int, float)):
                    cells.append({"t": "number", "fmt": fmt, "text": number_text(raw[key], fmt)})
                else:
                    # ECMA-376 escapes (_xHHHH_) as Excel decodes them; openpyxl 3.0 leaves them in.
                    text = re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), str(v))
                    cells.append({"t": "text", "text": text})
            rows.append(cells)
        result[name] = rows
    json.dump(result, sys.stdout)


main(sys.argv[1])
