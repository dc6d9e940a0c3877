#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build the canned libatasmart blobs of the ATA probe tests, field by field.

Run from anywhere: python3 make_blobs.py  (Python 3 standard library only).
It rewrites *.blob and expected.txt beside itself; the output is
deterministic, so a rerun leaves git clean.

Blob layout (what libatasmart's sk_disk_get_blob() writes and
sk_disk_set_blob() reads back; libatasmart 0.19, atasmart.c): a sequence of
records, each

    4 bytes  tag, ASCII in this byte order: "IDFY", "SMST", "SMDT" or "SMTH"
    4 bytes  payload length, big-endian (htonl)
    payload  IDFY: the 512 bytes of IDENTIFY DEVICE data
             SMST: 4 bytes, big-endian, 1 = SMART RETURN STATUS "good"
             SMDT: the 512 bytes of SMART READ DATA
             SMTH: the 512 bytes of SMART READ THRESHOLDS

in the order IDFY, SMST, SMDT, SMTH; each record is optional except IDFY.

IDENTIFY DEVICE data: ACS-3 (T13/2161-D revision 5), 7.12.7, Table 45.
Words are little-endian 16-bit; ATA strings hold two characters per word,
the first in bits 15:8, padded with spaces.

SMART READ DATA (ACS-3 7.48.6; the layout of the device SMART data
structure, Table 130 in ACS-3, earlier ATA/ATAPI-7 Table 42): bytes 0-1 data
structure revision, 2-361 thirty 12-byte attribute entries, 362 off-line data
collection status, 363 self-test execution status, 364-365 off-line
collection time (s), 367 off-line collection capability, 368-369 SMART
capability, 370 error logging capability, 372/373/374 short/extended/
conveyance self-test polling time (min), 511 checksum.  ACS-3 leaves the
attribute entries vendor specific; every drive uses the layout of SFF-8035i
rev 2: byte 0 attribute id (0 = unused entry), 1-2 flags (bit 0 pre-failure,
bit 1 updated online), 3 normalized current value, 4 worst value, 5-10 raw
value (48 bits, little-endian), 11 reserved.

SMART READ THRESHOLDS (obsolete since ATA/ATAPI-5 but still answered;
SFF-8035i): bytes 0-1 revision, 2-361 thirty 12-byte entries (byte 0
attribute id, byte 1 threshold, 2-11 reserved), 511 checksum.

Checksums: IDENTIFY word 255 holds A5h in bits 7:0 and in bits 15:8 the
two's complement of the sum of bytes 0-510; a SMART page's byte 511 is the
two's complement of the sum of bytes 0-510.  Either way all 512 bytes sum
to 0 modulo 256.

Attribute names and units in expected.txt are libatasmart's (its
attribute_info table); the interpretation of vendor attributes (units of
241/242/246, NAND-write counters, wear) is docs/probes-ata.md's table.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
UNKNOWN = "unknown"


# ---------------------------------------------------------------- IDENTIFY
class Identify:
    def __init__(self):
        self.w = [0] * 256

    def word(self, n, value):
        assert 0 <= value <= 0xFFFF
        self.w[n] = value

    def string(self, first, last, text):
        """ATA string over words first..last (ACS-3 3.4.9: two chars a word, first char in bits 15:8)."""
        n = (last - first + 1) * 2
        s = text.ljust(n).encode("ascii")
        assert len(s) == n, text
        for i in range(0, n, 2):
            self.w[first + i // 2] = s[i] << 8 | s[i + 1]

    def qword(self, first, value):
        for i in range(4):
            self.w[first + i] = (value >> (16 * i)) & 0xFFFF

    def dword(self, first, value):
        self.w[first] = value & 0xFFFF
        self.w[first + 1] = (value >> 16) & 0xFFFF

    def bytes(self):
        self.w[255] = 0x00A5                       # word 255 bits 7:0: signature A5h
        b = bytearray(struct.pack("<256H", *self.w))
        b[511] = (-sum(b[:511])) & 0xFF            # word 255 bits 15:8: checksum
        assert sum(b) % 256 == 0
        return bytes(b)


def identify(d):
    """IDENTIFY DEVICE data of drive spec @d, word by word (ACS-3 Table 45)."""
    idf = Identify()
    idf.word(0, 0x0040)              # w0 general configuration: bit 15 = 0 ATA device (bit 6 obsolete, as drives set it)
    idf.string(10, 19, d["serial"])  # w10-19 serial number, 20 ASCII characters
    idf.string(23, 26, d["firmware"])  # w23-26 firmware revision, 8 characters
    idf.string(27, 46, d["model"])   # w27-46 model number, 40 characters
    idf.word(49, 0x0300)             # w49 capabilities: bit 9 LBA supported, bit 8 DMA supported
    sectors = d["sectors"]
    idf.dword(60, min(sectors, 0x0FFFFFFF))  # w60-61 total addressable sectors for 28-bit commands
    if d.get("words_230"):
        idf.word(69, 1 << 3)         # w69 bit 3: extended number of user addressable sectors (w230-233) supported
        idf.qword(230, sectors)      # w230-233 extended number of user addressable sectors
    idf.word(76, d.get("w76", 0x000E))  # w76 SATA capabilities: bits 3/2/1 Gen3/Gen2/Gen1 signalling speeds supported
    idf.word(77, d["speed_code"] << 1)  # w77 bits 3:1 current negotiated SATA signal speed (1 Gen1, 2 Gen2, 3 Gen3)
    idf.word(80, 0x07F0)             # w80 major version: ATA/ATAPI-4 .. ACS-3 (bits 4..10)
    w82 = 0x4000 | 0x0001            # w82 bit 14 NOP supported, bit 0 SMART feature set supported
    if d.get("smart_supported", True) is False:
        w82 &= ~0x0001
    if d["wc_supported"]:
        w82 |= 1 << 5                # w82 bit 5 volatile write cache supported
    idf.word(82, w82)
    idf.word(83, 0x4000 | 1 << 10)   # w83 bits 15:14 = 01b (words 82-83 valid), bit 10 48-bit Address feature set
    idf.word(84, 0x4000)             # w84 bits 15:14 = 01b
    w85 = 0x4000 | (0x0001 if d.get("smart_supported", True) else 0)  # w85 bit 0 SMART enabled
    if d["wc_enabled"]:
        w85 |= 1 << 5                # w85 bit 5 volatile write cache enabled
    idf.word(85, w85)
    idf.word(86, 1 << 10)            # w86 bit 10 48-bit Address feature set enabled
    idf.word(87, 0x4000)             # w87 bits 15:14 = 01b
    idf.qword(100, sectors)          # w100-103 number of user addressable logical sectors (48-bit)
    idf.word(106, d["w106"])         # w106 physical/logical sector size (bits 15:14 = 01b valid, 13, 12, 3:0)
    if d.get("logical_words"):
        idf.dword(117, d["logical_words"])  # w117-118 logical sector size in words (valid when w106 bit 12 is set)
    idf.word(169, 1 if d["trim"] else 0)  # w169 bit 0 DATA SET MANAGEMENT: TRIM supported
    idf.word(217, d["rpm"])          # w217 nominal media rotation rate: 1 non-rotating, 0401h-FFFEh rpm
    return idf.bytes()


# -------------------------------------------------------------- SMART pages
def smart_data(attrs):
    """SMART READ DATA page: attribute entries from offset 2, 12 bytes each."""
    p = bytearray(512)
    struct.pack_into("<H", p, 0, 0x0010)     # bytes 0-1 data structure revision
    assert len(attrs) <= 30
    for i, a in enumerate(attrs):
        off = 2 + 12 * i
        p[off] = a["id"]                                   # byte 0 attribute id
        struct.pack_into("<H", p, off + 1, a["flags"])     # bytes 1-2 flags
        p[off + 3] = a["cur"]                              # byte 3 normalized current value
        p[off + 4] = a["worst"]                            # byte 4 worst value
        p[off + 5:off + 11] = a["raw"].to_bytes(6, "little")  # bytes 5-10 raw value, 48 bits
    p[362] = 0x00            # off-line data collection status: never started
    p[363] = 0x00            # self-test execution status: completed without error / never run
    struct.pack_into("<H", p, 364, 120)  # off-line data collection time, seconds
    p[367] = 0x7B            # off-line data collection capability (execute immediate, self-tests, ...)
    struct.pack_into("<H", p, 368, 0x0003)  # SMART capability: saves data before power saving, autosave timer
    p[370] = 0x01            # error logging supported
    p[372] = 2               # short self-test polling time, minutes
    p[373] = 30              # extended self-test polling time, minutes
    p[374] = 0               # conveyance self-test polling time
    p[511] = (-sum(p[:511])) & 0xFF      # byte 511 checksum
    assert sum(p) % 256 == 0
    return bytes(p)


def smart_thresholds(attrs):
    p = bytearray(512)
    struct.pack_into("<H", p, 0, 0x0010)     # bytes 0-1 revision
    for i, a in enumerate(attrs):
        off = 2 + 12 * i
        p[off] = a["id"]                     # byte 0 attribute id
        p[off + 1] = a["thresh"]             # byte 1 threshold
    p[511] = (-sum(p[:511])) & 0xFF
    return bytes(p)


def record(tag, payload):
    assert len(tag) == 4
    return tag.encode("ascii") + struct.pack(">I", len(payload)) + payload


def blob(d):
    out = record("IDFY", identify(d))
    if "status" in d:
        out += record("SMST", struct.pack(">I", d["status"]))
    if d.get("attrs") is not None:
        out += record("SMDT", smart_data(d["attrs"]))
        if d.get("thresholds", True):
            out += record("SMTH", smart_thresholds(d["attrs"]))
    return out


# ------------------------------------------------------------ the drives
# Attribute names libatasmart gives these ids (its attribute_info table).
LIBATASMART_NAMES = {
    1: "raw-read-error-rate", 3: "spin-up-time", 4: "start-stop-count", 5: "reallocated-sector-count",
    7: "seek-error-rate", 9: "power-on-hours", 10: "spin-retry-count", 12: "power-cycle-count",
    170: "available-reserved-space", 171: "program-fail-count", 172: "erase-fail-count",
    177: "wear-leveling-count", 179: "used-reserved-blocks-total", 181: "program-fail-count-total",
    182: "erase-fail-count-total", 183: "runtime-bad-block-total", 184: "end-to-end-error",
    187: "reported-uncorrect", 190: "airflow-temperature-celsius", 192: "power-off-retract-count",
    193: "load-cycle-count", 194: "temperature-celsius-2", 195: "hardware-ecc-recovered",
    197: "current-pending-sector", 198: "offline-uncorrectable", 199: "udma-crc-error-count",
    225: "load-cycle-count-2", 232: "endurance-remaining", 233: "power-on-seconds-2", 235: "good-block-rate",
    241: "total-lbas-written", 242: "total-lbas-read",
}

PRE, ADV = 0x0033, 0x0032      # typical flags: pre-failure+online(+perf/err), advisory online


def A(id_, flags, cur, worst, raw, thresh=0):
    return {"id": id_, "flags": flags, "cur": cur, "worst": worst, "raw": raw, "thresh": thresh}


GIB, MIB32 = 1 << 30, 32 << 20

DRIVES = [
    # A TLC SATA SSD with 241 in LBAs and a vendor NAND-write counter:
    # Samsung PM871 (OEM), 249 NAND_Writes_1GiB (smartmontools drivedb, Samsung entry).
    {
        "file": "samsung_pm871_tlc.blob",
        "model": "SAMSUNG MZ7LN256HMJP-000L7", "serial": "S2ZXNX0J812345", "firmware": "MAV01L6Q",
        "sectors": 500118192, "words_230": True, "w106": 0x4000, "speed_code": 3,
        "wc_supported": True, "wc_enabled": True, "trim": True, "rpm": 1, "status": 1,
        "attrs": [
            A(5, PRE, 100, 100, 0, 10), A(9, ADV, 98, 98, 6120), A(12, ADV, 99, 99, 1234),
            A(177, 0x0013, 96, 96, 62, 5), A(179, 0x0013, 100, 100, 0, 10), A(181, ADV, 100, 100, 0, 10),
            A(182, ADV, 100, 100, 0, 10), A(183, 0x0013, 100, 100, 0, 10), A(187, ADV, 100, 100, 0),
            A(190, ADV, 66, 50, 34), A(194, 0x0022, 62, 45, 38), A(195, 0x001A, 200, 200, 0),
            A(199, 0x003E, 100, 100, 0), A(235, 0x0012, 99, 99, 41),
            A(241, ADV, 99, 99, 12345678901), A(242, ADV, 99, 99, 9876543210), A(249, ADV, 100, 100, 7321),
        ],
        "expect": {
            "interface": "sata", "capacity_bytes": 500118192 * 512, "logical_block_bytes": 512,
            "physical_block_bytes": 512, "rotational": 0, "trim_supported": 1, "volatile_write_cache": 1,
            "link": "SATA 6.0 Gb/s", "has_smart": 1,
            "host_write_bytes": 12345678901 * 512, "host_read_bytes": 9876543210 * 512,
            "nand_write_bytes": 7321 * GIB, "nand_write_source": "ATA attribute 249 (GiB)",
            "temp_c": 38, "percentage_used": 100 - 96, "power_on_hours": 6120, "power_cycles": 1234,
            "unsafe_shutdowns": 41, "media_errors": 0,
        },
    },
    # A Samsung retail drive: 177 wear levelling, 241/242 in LBAs, temperature only in 190.
    {
        "file": "samsung_860evo.blob",
        "model": "Samsung SSD 860 EVO 500GB", "serial": "S3Z2NB0K654321P", "firmware": "RVT04B6Q",
        "sectors": 976773168, "w106": 0x4000, "speed_code": 3,
        "wc_supported": True, "wc_enabled": False, "trim": True, "rpm": 1, "status": 1,
        "attrs": [
            A(5, PRE, 100, 100, 0, 10), A(9, ADV, 96, 96, 15000), A(12, ADV, 99, 99, 880),
            A(177, 0x0013, 91, 91, 180, 0), A(179, 0x0013, 100, 100, 0, 10), A(181, ADV, 100, 100, 0, 10),
            A(182, ADV, 100, 100, 0, 10), A(183, 0x0013, 100, 100, 0, 10), A(187, ADV, 100, 100, 0),
            A(190, ADV, 69, 52, 31), A(195, 0x001A, 200, 200, 0), A(199, 0x003E, 100, 100, 0),
            A(235, 0x0012, 99, 99, 57), A(241, ADV, 99, 99, 40123456789), A(242, ADV, 99, 99, 30111222333),
        ],
        "expect": {
            "interface": "sata", "capacity_bytes": 976773168 * 512, "logical_block_bytes": 512,
            "physical_block_bytes": 512, "rotational": 0, "trim_supported": 1, "volatile_write_cache": 0,
            "link": "SATA 6.0 Gb/s", "has_smart": 1,
            "host_write_bytes": 40123456789 * 512, "host_read_bytes": 30111222333 * 512,
            "nand_write_bytes": UNKNOWN, "nand_write_source": "",
            "temp_c": 31, "percentage_used": 100 - 91, "power_on_hours": 15000, "power_cycles": 880,
            "unsafe_shutdowns": 57, "media_errors": 0,
        },
    },
    # A DRAM-less drive with few attributes, no thresholds page, no SMART status,
    # 512-byte logical / 4096-byte physical sectors, Gen3 drive on a Gen2 link.
    {
        "file": "dramless_few_attrs.blob",
        "model": "DL120 240GB SSD", "serial": "DL120A000042", "firmware": "SBFMB1.1",
        "sectors": 468862128, "w106": 0x6003, "speed_code": 2,
        "wc_supported": False, "wc_enabled": False, "trim": True, "rpm": 1,
        "thresholds": False,
        "attrs": [A(1, 0x000B, 0, 0, 0), A(9, ADV, 100, 100, 321), A(12, ADV, 100, 100, 77),
                  A(194, 0x0022, 67, 60, 33)],
        "expect": {
            "interface": "sata", "capacity_bytes": 468862128 * 512, "logical_block_bytes": 512,
            "physical_block_bytes": 4096, "rotational": 0, "trim_supported": 1, "volatile_write_cache": 0,
            "link": "SATA 3.0 Gb/s", "has_smart": 1,
            "host_write_bytes": UNKNOWN, "host_read_bytes": UNKNOWN,
            "nand_write_bytes": UNKNOWN, "nand_write_source": "",
            "temp_c": 33, "percentage_used": UNKNOWN, "power_on_hours": 321, "power_cycles": 77,
            "unsafe_shutdowns": UNKNOWN, "media_errors": UNKNOWN,
        },
    },
    # Intel 530: 241/242 in 32 MiB units, 249 NAND writes in GiB, 233 wear, 174 and 192 both present,
    # 194 raw carrying min/max in its upper bytes.
    {
        "file": "intel_530.blob",
        "model": "INTEL SSDSC2BW240A4", "serial": "CVDA412345678240CGN", "firmware": "DC32",
        "sectors": 468862128, "w106": 0x4000, "speed_code": 3,
        "wc_supported": True, "wc_enabled": True, "trim": True, "rpm": 1, "status": 1,
        "attrs": [
            A(5, ADV, 100, 100, 0), A(9, ADV, 100, 100, 5000), A(12, ADV, 100, 100, 1500),
            A(170, ADV, 100, 100, 0, 10), A(171, ADV, 100, 100, 0), A(172, ADV, 100, 100, 0),
            A(174, ADV, 100, 100, 23), A(184, PRE, 100, 100, 0, 90), A(187, ADV, 100, 100, 0),
            A(192, ADV, 100, 100, 24), A(194, 0x0022, 35, 45, 35 | 12 << 16 | 45 << 32),
            A(199, ADV, 100, 100, 0), A(225, ADV, 100, 100, 197300), A(232, PRE, 100, 100, 0, 10),
            A(233, ADV, 97, 97, 0), A(241, ADV, 100, 100, 197300), A(242, ADV, 100, 100, 150000),
            A(249, 0x0012, 100, 100, 8120),
        ],
        "expect": {
            "interface": "sata", "capacity_bytes": 468862128 * 512, "logical_block_bytes": 512,
            "physical_block_bytes": 512, "rotational": 0, "trim_supported": 1, "volatile_write_cache": 1,
            "link": "SATA 6.0 Gb/s", "has_smart": 1,
            "host_write_bytes": 197300 * MIB32, "host_read_bytes": 150000 * MIB32,
            "nand_write_bytes": 8120 * GIB, "nand_write_source": "ATA attribute 249 (GiB)",
            "temp_c": 35, "percentage_used": 100 - 97, "power_on_hours": 5000, "power_cycles": 1500,
            "unsafe_shutdowns": 23, "media_errors": 0,
        },
    },
    # A 7200 rpm hard disk with 4096-byte logical sectors (4Kn, words 117-118), no TRIM, one failing
    # pre-failure attribute (5 below its threshold) and 241 whose unit on a 4Kn drive is not documented.
    {
        "file": "hdd_4kn_7200.blob",
        "model": "HDX4000 4TB 4KN", "serial": "ZC1A2B3C", "firmware": "SN04",
        "sectors": 976754646, "w106": 0x5000, "logical_words": 2048, "speed_code": 3,
        "wc_supported": True, "wc_enabled": True, "trim": False, "rpm": 7200, "status": 1,
        "attrs": [
            A(1, 0x000F, 83, 64, 199781349, 44), A(3, 0x0003, 92, 91, 0, 0), A(4, ADV, 100, 100, 279, 20),
            A(5, PRE, 5, 5, 3920, 10), A(7, 0x000F, 95, 60, 3275107, 45), A(9, ADV, 59, 59, 36055),
            A(10, 0x0013, 100, 100, 0, 97), A(12, ADV, 100, 100, 279, 20), A(187, ADV, 98, 98, 2),
            A(190, 0x0022, 64, 47, 36 | 30 << 16 | 48 << 24, 40), A(192, ADV, 100, 100, 1090),
            A(193, ADV, 92, 92, 16993), A(194, 0x0022, 36, 53, 36), A(197, 0x0012, 100, 100, 8),
            A(198, 0x0010, 100, 100, 8), A(199, 0x003E, 200, 200, 0), A(241, 0x0000, 100, 253, 45678901234),
        ],
        "expect": {
            "interface": "sata", "capacity_bytes": 976754646 * 4096, "logical_block_bytes": 4096,
            "physical_block_bytes": 4096, "rotational": 1, "trim_supported": 0, "volatile_write_cache": 1,
            "link": "SATA 6.0 Gb/s", "has_smart": 1,
            "host_write_bytes": UNKNOWN, "host_read_bytes": UNKNOWN,
            "nand_write_bytes": UNKNOWN, "nand_write_source": "",
            "temp_c": 36, "percentage_used": UNKNOWN, "power_on_hours": 36055, "power_cycles": 279,
            "unsafe_shutdowns": 1090, "media_errors": 2,
        },
    },
]


def attr_expect(d, a):
    """id=name|current|worst|threshold|raw|failing as libatasmart reports them."""
    def norm(v):
        return v if 1 <= v <= 0xFD else -1    # libatasmart: normalized values valid in 1..253
    has_th = d.get("thresholds", True)
    th = a["thresh"] if has_th and a["thresh"] != 0xFE else -1
    cur = norm(a["cur"])
    failing = 1 if (th >= 1 and th <= 0xFD and cur >= 0 and cur <= th) else 0
    name = LIBATASMART_NAMES.get(a["id"], "attribute-%d" % a["id"])
    return "%s|%d|%d|%d|%d|%d" % (name, cur, norm(a["worst"]), th, a["raw"], failing)


def main():
    lines = ["# Expected decoding of the blobs beside this file; written by make_blobs.py.",
             "# 'unknown' = SLC_PROBE_UNKNOWN (or NAN for temp_c); attr.ID = name|current|worst|threshold|raw|failing."]
    for d in DRIVES:
        with open(os.path.join(HERE, d["file"]), "wb") as f:
            f.write(blob(d))
        lines.append("")
        lines.append("[%s]" % d["file"])
        lines.append("model=%s" % d["model"])
        lines.append("serial=%s" % d["serial"])
        lines.append("firmware=%s" % d["firmware"])
        for k, v in d["expect"].items():
            lines.append("%s=%s" % (k, v))
        lines.append("n_attrs=%d" % len(d["attrs"]))
        for a in d["attrs"]:
            lines.append("attr.%d=%s" % (a["id"], attr_expect(d, a)))
    with open(os.path.join(HERE, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
