#!/usr/bin/env python3
"""Writes canonical-urls-sampled.json and urljoin-sampled.json beside this file.

Random URLs and references built from awkward pieces (escapes valid and not, reserved and unsafe characters,
non-ASCII text, IDN and IPv6 hosts, ports, user info, parameters, queries with blank and repeated arguments,
fragments, dot segments, other schemes), with the answers of the Python code the original runs:
w3lib 1.18's canonicalize_url and urllib.parse.urljoin. The tests hold the Java code to every row. The script
runs on Python 3.7 or newer, whose quote_plus keeps '~': canonical forms get '~' escaped in their query as the
original's Python 3.6 escapes it (as_python_36).

Left out are the inputs where the Java code differs on purpose (docs/differences.md, "URLs and request
fingerprints"): %23 in a path, a non-ASCII host with user info or a port, C0 controls or spaces at either end,
and a network location with characters that no host has (';' right after it, with no path).

    git clone https://github.com/scrapy/w3lib && git -C w3lib checkout v1.18.0
    PYTHONPATH=w3lib python3 sample_references.py          # needs six; any Python 3.7 or newer
"""
import hashlib
import json
import os
import random
from urllib.parse import urljoin

from w3lib.url import canonicalize_url

SAMPLES = 400
HERE = os.path.dirname(os.path.abspath(__file__))

TEXT = list("abcXYZ019-._~!$&'()*+,;=:@/?[]% \t\"<>`{}|\\^") + ['é', '中', '😀', 'ß', '\u00a0', '\x7f', '\x01']
ESCAPES = ['%20', '%2F', '%2f', '%3F', '%3f', '%25', '%7E', '%7e', '%41', '%zz', '%', '%2', '%C3%A9', '%c3%a9',
           '%E4%B8%AD', '%FF', '%80', '%00', '%2B', '%26', '%3D', '%3B', '%5B']
HOSTS = ['example.com', 'EXAMPLE.com', 'www.Example.COM', 'münchen.de', 'xn--mnchen-3ya.de', '127.0.0.1', '[::1]',
         '[2001:DB8::1]', 'a.b', 'ex_ample.com']
SEGMENTS = ['a', 'b', '.', '..', '', 'c.html', '%2e', '%2E%2E', '.a', 'a..', ';p', 'x;y=1', '%41', 'é', '//', '\\',
            ':', 'http:', 'HTTP:', 'mailto:x', 'g:h', '@', '~']
BASES = ['http://h/a/b/c/d;p?q', 'http://h', 'http://h/', 'https://u:p@H:8080/x/y?z#f', 'http://h/a/b/',
         'http://h/a/b?x=1#y', 'http://[::1]:80/a/./b', 'http://h/a/../b/']
ENDS = ''.join(chr(c) for c in range(0x21))


def text(rng, most, alphabet):
    pieces = []
    for _ in range(rng.randint(0, most)):
        pick = rng.random()
        pieces.append(rng.choice(ESCAPES) if pick < 0.25 else rng.choice(alphabet) if pick < 0.9 else rng.choice('abc'))
    return ''.join(pieces)


def url(rng):
    host = rng.choice(HOSTS)
    netloc = host
    if host.isascii():
        if rng.random() < 0.1:
            netloc = rng.choice(['user@', 'u:p@', 'Us%40er:pa ss@']) + netloc
        if rng.random() < 0.2:
            netloc += rng.choice([':80', ':', ':8080', ':0080', ':443'])
    built = rng.choice(['http', 'https', 'HTTP', 'Https', 'ftp', 'file']) + '://' + netloc
    built += '/' + text(rng, 12, [c for c in TEXT if c not in '?#'])
    if rng.random() < 0.15:
        built += ';' + text(rng, 6, [c for c in TEXT if c not in '?#'])
    if rng.random() < 0.7:
        arguments = []
        for _ in range(rng.randint(0, 5)):
            name = text(rng, 4, [c for c in TEXT if c not in '#&;='])
            arguments.append(name + '=' + text(rng, 5, [c for c in TEXT if c not in '#&;']) if rng.random() < 0.8 else name)
        built += '?' + rng.choice(['&', '&', ';', '&&']).join(arguments)
    if rng.random() < 0.3:
        built += '#' + text(rng, 6, TEXT + ['%23'])
    return built.strip(ENDS)


def reference(rng):
    path = '/'.join(rng.choice(SEGMENTS) for _ in range(rng.randint(0, 5)))
    pick = rng.random()
    if pick < 0.1:
        path = '/' + path
    elif pick < 0.15:
        path = '//' + rng.choice(['h2', 'H2:81', 'u@h', '']) + '/' + path
    elif pick < 0.2:
        path = rng.choice(['http:', 'https:', 'HTTP:', 'ftp:', 'javascript:']) + path
    elif pick < 0.25:
        path = ''
    if rng.random() < 0.2:
        path += '?' + rng.choice(['', 'a=1', 'b', '?/..'])
    if rng.random() < 0.2:
        path += '#' + rng.choice(['', 'f', '/..'])
    return path


def fingerprint(canonical):
    digest = hashlib.sha1()
    for part in (b'GET', canonical.encode('utf-8'), b''):
        digest.update(part)
    return digest.hexdigest()


def as_python_36(canonical):
    """The form under Python 3.6, which the original runs: its quote_plus escapes '~' in the query (3.7 keeps it)."""
    fragment = canonical.find('#')
    end = len(canonical) if fragment < 0 else fragment
    query = canonical.find('?', 0, end)
    if query < 0:
        return canonical
    return canonical[:query] + canonical[query:end].replace('~', '%7E') + canonical[end:]


def canonical_cases(rng):
    cases = []
    while len(cases) < SAMPLES:
        raw = url(rng)
        try:
            canonical = as_python_36(canonicalize_url(raw))
            with_fragment = as_python_36(canonicalize_url(raw, keep_fragments=True))
        except ValueError:
            continue
        cases.append({'url': raw, 'canonical': canonical, 'canonicalKeepingFragment': with_fragment, 'method': 'GET',
                      'body': '', 'fingerprint': fingerprint(canonical), 'note': 'sampled %d' % len(cases)})
    return cases


def join_cases(rng):
    cases = []
    for _ in range(SAMPLES):
        base, ref = rng.choice(BASES), reference(rng)
        cases.append({'base': base, 'ref': ref, 'resolved': urljoin(base, ref)})
    return cases


def write(name, rows):
    with open(os.path.join(HERE, name), 'w', encoding='utf-8') as out:
        json.dump(rows, out, indent=1)
        out.write('\n')


if __name__ == '__main__':
    write('canonical-urls-sampled.json', canonical_cases(random.Random(1318)))
    write('urljoin-sampled.json', join_cases(random.Random(1318)))
