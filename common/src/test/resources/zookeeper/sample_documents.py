#!/usr/bin/env python3
"""Writes written-sampled.json beside this file.

Random domain config documents built from awkward pieces (text that looks like a YAML 1.1 number, boolean, null or
timestamp; quotes, indicators, comments; multi-line, long, non-ASCII and non-printable text; floats at the limits;
dates, binary, keys that are no text; nested lists and mappings), each dumped by PyYAML 3.12, the original's, in
block, flow or mixed style and read back; with the text the original Redis monitor writes back for that document
after an edit that changes nothing: yaml.safe_dump(yaml.safe_load(text), default_flow_style=False), both keys made
present. The tests hold the Java code's read and write of the node to every row.

    git clone https://github.com/yaml/pyyaml && git -C pyyaml checkout 3.12
    # on Python 3.10 or newer, PyYAML 3.12 needs collections.abc.Hashable for collections.Hashable (constructor.py)
    PYTHONPATH=pyyaml/lib3 python3 sample_documents.py
"""
import datetime
import json
import os
import random

import yaml

assert yaml.__version__ == '3.12', yaml.__version__

SAMPLES = 200
HERE = os.path.dirname(os.path.abspath(__file__))

WORDS = ['yes', 'no', 'on', 'off', 'y', 'n', 'Yes', 'NO', 'true', 'False', 'null', 'Null', '~', '', ' ', '1e3', '1E3',
         '1.5e3', '1e+3', '1.5e+3', '0x1F', '0o17', '012', '09', '1_000', '1:20', '1:20.5', '.5', '+.5', '-.5', '+1', '-1',
         '+.inf', '.NaN', '-', ':', '?', '#x', 'a #b', 'a: b', 'a:b', '- x', '[x]', '{x}', '"q"', "'q'", 'a\nb', 'a\n\nb',
         ' lead', 'trail ', 'é', 'Bücher.example', '\U0001F600', '\x01', '\t', 'a\tb', '\u2028', '\ufeff', '\x85', '\xa0',
         '%x', '@x', '`x', '!x', '&x', '*x', '|', '>', '?x', ',x', 'x,', 'x]', '2001-12-14', '2001-12-14 21:59:43.10 -5',
         '2001-12-14t21:59:43.10-05:00', '12:30:00', 'example.com', 'www.ebay.com', 'Example.COM', '=', '<<', 'x\\y',
         'a "b" c', "it's", '...', '---', '0', '-0', '00', '0b101', '0b', '+', '1.', '1.e5', '6.8523015e+5',
         '685.230_15e+03', '190:20:30.15', 'ａ', '\x7f', '\ud7ff', '\ue000', '\ufffe', '\uffff', '\x1b[0m', 'x\r\ny',
         'x\ry', 'a  b', 'a \n b', '\n', 'end\n', '\nstart']
DOMAINS = ['example.com', 'cnn.com', 'ebay.com', 'a.example']


def text(r):
    k = r.random()
    if k < 0.45:
        return r.choice(WORDS)
    if k < 0.6:
        return ''.join(r.choice(WORDS) for _ in range(r.randint(1, 3)))
    if k < 0.75:
        return ''.join(r.choice('ab .:-#,[]{}\'"\\\n\t\xe9\u4e2d\U0001F600\x00\x07') for _ in range(r.randint(1, 12)))
    if k < 0.9:  # long enough to be folded
        return ' '.join(r.choice(['a' * r.randint(1, 30), 'word', 'é', 'x:', '#', ' ', '\n', '"', "'"])
                        for _ in range(r.randint(5, 40)))
    return r.choice(DOMAINS + ['xn--bcher-kva.example'])


def scalar(r):
    k = r.random()
    if k < 0.2:
        return r.choice([0, 1, -1, 60, 10, 2 ** 31, 2 ** 63, -2 ** 64, 10 ** 30, r.randint(-10 ** 6, 10 ** 6)])
    if k < 0.35:
        return r.choice([0.5, 1.0, 0.0, -0.0, 1e-05, 1e20, 1e16, 1e15, 123456789.123, 0.1, 2.5e-300, float('inf'),
                         -float('inf'), r.uniform(-1000, 1000), r.random(), 1e100, 5e-324, 1e-323])
    if k < 0.42:
        return r.choice([True, False, None])
    if k < 0.47:
        return r.choice([datetime.date(2001, 12, 14), datetime.datetime(2001, 12, 14, 21, 59, 43, 100000),
                         datetime.datetime(2020, 1, 1), datetime.date(1, 1, 1)])
    if k < 0.5:
        return r.choice([b'', b'\x00\x01', bytes(range(60)), b'abc'])
    return text(r)


def key(r):
    return text(r) if r.random() < 0.85 else r.choice([1, 2, 0, -3, 2.5, True, None, 10 ** 20])


def value(r, depth):
    k = r.random()
    if depth < 3 and k < 0.12:
        return [value(r, depth + 1) for _ in range(r.randint(0, 4))]
    if depth < 3 and k < 0.22:
        return {key(r): value(r, depth + 1) for _ in range(r.randint(0, 4))}
    return scalar(r)


def throttle(r):
    entry = {}
    for name in ['window', 'hits', 'scale']:
        if r.random() < 0.85:
            entry[name] = scalar(r) if r.random() < 0.3 else r.choice([60, 10, 0.5, 1, 1.0, 0.9, 30, 3600])
    if r.random() < 0.2:
        entry[key(r)] = value(r, 2)
    return entry


def document(r):
    d = {}
    if r.random() < 0.85:
        d['domains'] = {(text(r) if r.random() < 0.3 else r.choice(DOMAINS) + str(i)): (throttle(r) if r.random() < 0.9 else value(r, 2))
                        for i in range(r.randint(0, 4))}
    if r.random() < 0.85:
        d['blacklist'] = [text(r) if r.random() < 0.6 else scalar(r) for _ in range(r.randint(0, 5))]
    for _ in range(r.randint(0, 2)):
        d[key(r)] = value(r, 1)
    return d


def sample(r):
    written = yaml.safe_dump(document(r), default_flow_style=r.choice([False, None, True]), allow_unicode=r.random() < 0.5,
                             width=r.choice([80, 80, 40, 200]))
    loaded = yaml.safe_load(written)
    loaded.setdefault('domains', {})
    loaded.setdefault('blacklist', [])
    return {'text': written, 'written': yaml.safe_dump(loaded, default_flow_style=False)}


def main():
    r = random.Random(20261202)
    rows = []
    while len(rows) < SAMPLES:
        rows.append(sample(r))
    with open(os.path.join(HERE, 'written-sampled.json'), 'w') as out:
        json.dump(rows, out, indent=1, ensure_ascii=True)
        out.write('\n')


if __name__ == '__main__':
    main()
