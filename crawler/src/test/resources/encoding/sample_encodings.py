#!/usr/bin/env python3
"""Writes detected-sampled.json beside this file: random responses and the encoding Scrapy 1.5 reports for each.

Content-Type headers with many charset labels, quoted or not, among other parameters, and bodies with byte order
marks, <meta charset>, http-equiv in either attribute order, XML declarations, <body> before them, declarations past
the 4096 bytes searched, and text in several encodings. The answer is TextResponse.encoding of Scrapy 1.5, whose
steps are repeated below over w3lib 1.18's functions. The tests hold the Java code to every row.

Left out are the two cases where the Java code differs on purpose (docs/differences.md, "A page's encoding"): a
body that none of ascii, utf-8 and cp1252 decode, and a label of a Python codec Java has no decoder for or that
decodes no text.

    git clone https://github.com/scrapy/w3lib && git -C w3lib checkout v1.18.0
    PYTHONPATH=w3lib python3 sample_encodings.py           # Python 3.7 to 3.10

Python 3.11 refuses w3lib 1.18's meta-tag pattern, which sets the verbose flag in its middle; earlier versions apply
that flag to the whole pattern, as the same pattern compiled with re.X does (how this file was last written, on 3.11).
"""
import base64
import codecs
import json
import os
import random

from w3lib.encoding import html_body_declared_encoding, html_to_unicode, http_content_type_encoding, resolve_encoding

SAMPLES = 300
HERE = os.path.dirname(os.path.abspath(__file__))

LABELS = ['utf-8', 'UTF-8', 'utf8', 'iso-8859-1', 'ISO-8859-1', 'latin1', 'ascii', 'us-ascii', 'windows-1252', 'cp1252',
          'windows-1251', 'koi8-r', 'KOI8-U', 'shift_jis', 'Shift-JIS', 'sjis', 'x-sjis', 'euc-jp', 'euc-kr', 'gb2312',
          'GBK', 'gb18030', 'big5', 'big5-hkscs', 'iso-8859-7', 'iso8859-15', 'iso-8859-9', 'tis-620', 'windows-874',
          'utf-16', 'utf-16le', 'UTF-16BE', 'utf-32', 'macintosh', 'x-mac-roman', 'bogus', 'iso-2022-jp', 'cp437',
          'ibm866', 'windows-31j', 'x-user-defined', 'ks_c_5601-1987', 'cp949', 'zh_cn', 'iso_8859_1', 'l1',
          'csisolatin1', 'u8', 'UTF_16', '', 'x', 'iso-ir-100', 'ansi_x3.4-1968', 'cp65001', 'iso-8859-11',
          'iso-8859-16', 'koi8_r']
BOMS = [codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE]
TEXTS = [b'<p>plain ascii</p>', 'caf\u00e9 \u4e2d'.encode('utf-8'), 'caf\u00e9'.encode('latin-1'), b'\xe4\xb8',
         '\u041f\u0440\u0438\u0432\u0435\u0442'.encode('koi8-r'), b'\x80\x99\xe2']
UNDECIDED = {'ascii'}


def content_type(rng):
    if rng.random() < 0.15:
        return None
    value = rng.choice(['text/html', 'TEXT/HTML', 'application/xhtml+xml', 'text/plain', 'text/xml', ''])
    parameters = []
    if rng.random() < 0.8:
        quote = rng.choice(['', '"', "'"])
        parameters.append(rng.choice(['charset', 'CHARSET', 'Charset', ' charset', 'x-charset', 'charset '])
                          + rng.choice(['=', ' = ']) + quote + rng.choice(LABELS) + quote)
    if rng.random() < 0.3:
        parameters.insert(rng.randint(0, len(parameters)), rng.choice(['q=1', 'boundary=x', 'foo="a;b"']))
    return value + ''.join(rng.choice(['; ', ';', ' ;']) + parameter for parameter in parameters)


def declaration(rng):
    label, quote = rng.choice(LABELS), rng.choice(['"', "'", ''])
    pick = rng.random()
    if pick < 0.35:
        return ('<meta' + rng.choice(['', ' ', '\n']) + ' charset' + rng.choice(['=', ' = ']) + quote + label + quote
                + rng.choice(['>', '/>', ' />', ' x=1>']))
    if pick < 0.7:
        attributes = ['http-equiv=' + rng.choice(['"Content-Type"', 'content-type', "'Content-type'", '"refresh"']),
                      'content=' + quote + rng.choice(['text/html', 'text/html ']) + rng.choice([';', '; ', ' ;'])
                      + rng.choice(['charset=', 'charset =', 'CHARSET=']) + label + quote]
        if rng.random() < 0.5:
            attributes.reverse()
        if rng.random() < 0.3:
            attributes.insert(rng.randint(0, 2), rng.choice(['name="x"', 'data-a=b', "lang='en'"]))
        return '<meta ' + ' '.join(attributes) + rng.choice(['>', '/>'])
    if pick < 0.85:
        return '<?xml version="1.0" encoding=' + quote + label + quote + '?>'
    return rng.choice(['<body>', '<BODY class=x>', '<meta name=viewport content="width=1">', '<!-- <meta charset=utf-8> -->'])


def body(rng):
    parts = []
    if rng.random() < 0.15:
        parts.append(rng.choice(BOMS))
    if rng.random() < 0.1:
        parts.append(b'x' * rng.choice([4000, 4080, 4090, 5000]))
    parts.append(rng.choice([b'', b'<html><head>', b'<!DOCTYPE html>\n<html>', b'  <HTML>']))
    for _ in range(rng.randint(0, 3)):
        text = declaration(rng)
        parts.append(text.encode('ascii') if rng.random() < 0.9 else text.encode('utf-16-le'))
    parts.append(rng.choice(TEXTS))
    return b''.join(parts)


def detect_text(data):
    """Scrapy 1.5's TextResponse._auto_detect_fun."""
    for name in ('ascii', 'utf-8', 'cp1252'):
        try:
            data.decode(name)
        except UnicodeError:
            continue
        return resolve_encoding(name)
    return None


def scrapy_encoding(header, data):
    """Scrapy 1.5's TextResponse.encoding: declared (header, then body), else inferred."""
    declared = http_content_type_encoding(header or '') or html_body_declared_encoding(data)
    if declared:
        return declared
    return html_to_unicode(header or '', data, auto_detect_fun=detect_text, default_encoding='ascii')[0]


def cases(rng):
    rows = []
    while len(rows) < SAMPLES:
        header, data = content_type(rng), body(rng)
        encoding = scrapy_encoding(header, data)
        if encoding not in UNDECIDED:
            rows.append({'contentType': header, 'body': base64.b64encode(data).decode('ascii'), 'encoding': encoding})
    return rows


if __name__ == '__main__':
    with open(os.path.join(HERE, 'detected-sampled.json'), 'w', encoding='utf-8') as out:
        json.dump(cases(random.Random(1318)), out, indent=1)
        out.write('\n')
