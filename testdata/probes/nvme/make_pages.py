#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build the canned NVMe pages of the probe tests, field by field.

Writes, next to this script:
  id-ctrl.bin          Identify Controller data structure (CNS 01h), 4096 bytes
  id-ns.bin            Identify Namespace data structure, NVM command set (CNS 00h), 4096 bytes
  smart.bin            SMART / Health Information log page (Log Identifier 02h), 512 bytes
  sanitize-running.bin Sanitize Status log page (Log Identifier 81h), 512 bytes: crypto erase at 25 %
  sanitize-done.bin    the same log when that crypto erase has completed
  sanitize-failed.bin  the same log when it has failed
  expected.json        what the decoders must make of them

The values are those of a plausible 1 TB TLC NVMe drive.  Every field names
where it lives: "NVMe Base 2.0" is the NVM Express Base Specification,
revision 2.0 (the Identify Controller data structure, the SMART / Health
Information log and the Sanitize Status log); "NVM CS 1.0" is the NVM Command
Set Specification, revision 1.0 (the I/O command set specific Identify
Namespace data structure, which the Base specification moved out in 2.0).
Offsets are bytes; all multi-byte fields are little-endian, as the
specifications lay them out.  Python 3 standard library only; run it again
after editing and commit the outputs.
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


class Page:
    def __init__(self, size):
        self.b = bytearray(size)
        self.owner = [None] * size

    def put(self, off, data, what):
        for i in range(len(data)):
            if self.owner[off + i] is not None:
                raise SystemExit(f"{what}: byte {off + i} already holds {self.owner[off + i]}")
            self.owner[off + i] = what
        self.b[off:off + len(data)] = data

    def u8(self, off, v, what):
        self.put(off, struct.pack("<B", v), what)

    def u16(self, off, v, what):
        self.put(off, struct.pack("<H", v), what)

    def u32(self, off, v, what):
        self.put(off, struct.pack("<I", v), what)

    def u64(self, off, v, what):
        self.put(off, struct.pack("<Q", v), what)

    def u128(self, off, v, what):
        self.put(off, struct.pack("<QQ", v & (2**64 - 1), v >> 64), what)

    def ascii(self, off, n, s, what):
        # ASCII string, left-justified, padded with spaces (20h); no NUL
        raw = s.encode("ascii")
        assert len(raw) <= n, what
        self.put(off, raw + b" " * (n - len(raw)), what)


# ---------------------------------------------------------------------------
# Identify Controller data structure (NVMe Base 2.0, "Identify Controller Data
# Structure", returned for CNS 01h)
# ---------------------------------------------------------------------------
C = dict(
    vid=0x1E4B,                 # PCI Vendor ID
    ssvid=0x1E4B,               # PCI Subsystem Vendor ID
    sn="TLC1T2304000123",       # Serial Number
    mn="Generic TLC NVMe SSD 1TB",  # Model Number
    fr="3.1.0A",                # Firmware Revision
    rab=6,                      # Recommended Arbitration Burst
    ieee=(0x00, 0x23, 0x4B),    # IEEE OUI Identifier (bytes as stored)
    cmic=0,                     # single port, single controller
    mdts=9,                     # Maximum Data Transfer Size: 2^9 x 4 KiB
    cntlid=1,                   # Controller ID
    ver=0x00010400,             # Version: 1.4.0
    oacs=0x0017,                # Optional Admin Command Support: Security (bit 0),
                                # Format NVM (bit 1), Firmware (bit 2), Device Self-test (bit 4)
    acl=3,                      # Abort Command Limit (0's based)
    aerl=7,                     # Asynchronous Event Request Limit (0's based)
    frmw=0x14,                  # Firmware Updates: 2 slots, activation without reset
    lpa=0x02,                   # Log Page Attributes: Commands Supported and Effects log
    elpe=63,                    # Error Log Page Entries (0's based)
    npss=4,                     # Number of Power States Support (0's based)
    wctemp=343,                 # Warning Composite Temperature Threshold, kelvins (70 C)
    cctemp=353,                 # Critical Composite Temperature Threshold, kelvins (80 C)
    hmpre=0,                    # Host Memory Buffer Preferred Size (none: DRAM on board)
    tnvmcap=1000204886016,      # Total NVM Capacity, bytes (16-byte field)
    sanicap=0x00000003,         # Sanitize Capabilities: Crypto Erase (bit 0), Block Erase (bit 1)
    sqes=0x66,                  # Submission Queue Entry Size: 64 bytes
    cqes=0x44,                  # Completion Queue Entry Size: 16 bytes
    nn=1,                       # Number of Namespaces
    oncs=0x005F,                # Optional NVM Command Support (Compare, Write Uncorrectable,
                                # Dataset Management, Write Zeroes, Save/Select, Timestamp)
    fna=0x04,                   # Format NVM Attributes: Cryptographic Erase supported (bit 2)
    vwc=0x07,                   # Volatile Write Cache: present (bit 0), flush with NSID FFFFFFFFh (bits 2:1)
    subnqn="nqn.2014-08.org.nvmexpress:uuid:5f0d1c9e-8d8a-4b8e-9c3a-1e4b00000123",
)

ctrl = Page(4096)
ctrl.u16(0, C["vid"], "VID 01:00")
ctrl.u16(2, C["ssvid"], "SSVID 03:02")
ctrl.ascii(4, 20, C["sn"], "SN 23:04")
ctrl.ascii(24, 40, C["mn"], "MN 63:24")
ctrl.ascii(64, 8, C["fr"], "FR 71:64")
ctrl.u8(72, C["rab"], "RAB 72")
ctrl.put(73, bytes(C["ieee"]), "IEEE 75:73")
ctrl.u8(76, C["cmic"], "CMIC 76")
ctrl.u8(77, C["mdts"], "MDTS 77")
ctrl.u16(78, C["cntlid"], "CNTLID 79:78")
ctrl.u32(80, C["ver"], "VER 83:80")
ctrl.u16(256, C["oacs"], "OACS 257:256")
ctrl.u8(258, C["acl"], "ACL 258")
ctrl.u8(259, C["aerl"], "AERL 259")
ctrl.u8(260, C["frmw"], "FRMW 260")
ctrl.u8(261, C["lpa"], "LPA 261")
ctrl.u8(262, C["elpe"], "ELPE 262")
ctrl.u8(263, C["npss"], "NPSS 263")
ctrl.u16(266, C["wctemp"], "WCTEMP 267:266")
ctrl.u16(268, C["cctemp"], "CCTEMP 269:268")
ctrl.u32(272, C["hmpre"], "HMPRE 275:272")
ctrl.u128(280, C["tnvmcap"], "TNVMCAP 295:280")
ctrl.u32(328, C["sanicap"], "SANICAP 331:328")
ctrl.u8(512, C["sqes"], "SQES 512")
ctrl.u8(513, C["cqes"], "CQES 513")
ctrl.u32(516, C["nn"], "NN 519:516")
ctrl.u16(520, C["oncs"], "ONCS 521:520")
ctrl.u8(524, C["fna"], "FNA 524")
ctrl.u8(525, C["vwc"], "VWC 525")
ctrl.put(768, C["subnqn"].encode("ascii"), "SUBNQN 1023:768 (NUL-padded)")
# Power State 0 Descriptor (bytes 2079:2048): MP 8.00 W in 0.01 W units
ctrl.u16(2048, 800, "PSD0 MP 2049:2048")

# ---------------------------------------------------------------------------
# Identify Namespace data structure for the NVM command set (NVM CS 1.0,
# "I/O Command Set Specific Identify Namespace Data Structure", CNS 00h)
# ---------------------------------------------------------------------------
N = dict(
    nsze=1953525168,            # Namespace Size, in logical blocks of the current format
    ncap=1953525168,            # Namespace Capacity
    nuse=732428288,             # Namespace Utilization
    nsfeat=0x00,                # Namespace Features
    nlbaf=2,                    # Number of LBA Formats, 0's based: 3 formats
    flbas=0x00,                 # Formatted LBA Size: format 0 (bits 3:0), metadata separate (bit 4)
    mc=0x00,                    # Metadata Capabilities
    dpc=0x00,                   # End-to-end Data Protection Capabilities: none
    dps=0x00,                   # End-to-end Data Protection Type Settings: none
    npwg=7,                     # Namespace Preferred Write Granularity (0's based): 8 blocks
    npwa=7,                     # Namespace Preferred Write Alignment (0's based)
    eui64=bytes([0x00, 0x23, 0x4B, 0x00, 0x00, 0x00, 0x01, 0x23]),
    # LBA Format n Data Structure: MS (15:0), LBADS (23:16), RP (25:24)
    lbaf=[(0, 9, 2),            # 512-byte data, no metadata, Relative Performance 2 (Good)
          (0, 12, 0),           # 4096-byte data, no metadata, RP 0 (Best)
          (8, 12, 1)],          # 4096-byte data, 8 bytes metadata, RP 1 (Better)
)

ns = Page(4096)
ns.u64(0, N["nsze"], "NSZE 7:0")
ns.u64(8, N["ncap"], "NCAP 15:8")
ns.u64(16, N["nuse"], "NUSE 23:16")
ns.u8(24, N["nsfeat"], "NSFEAT 24")
ns.u8(25, N["nlbaf"], "NLBAF 25")
ns.u8(26, N["flbas"], "FLBAS 26")
ns.u8(27, N["mc"], "MC 27")
ns.u8(28, N["dpc"], "DPC 28")
ns.u8(29, N["dps"], "DPS 29")
ns.u16(64, N["npwg"], "NPWG 65:64")
ns.u16(66, N["npwa"], "NPWA 67:66")
ns.put(120, N["eui64"], "EUI64 127:120")
for i, (ms, lbads, rp) in enumerate(N["lbaf"]):
    # LBAF0 at bytes 131:128, LBAFn at 128 + 4n
    ns.u32(128 + 4 * i, ms | (lbads << 16) | (rp << 24), f"LBAF{i} {131 + 4 * i}:{128 + 4 * i}")

# ---------------------------------------------------------------------------
# SMART / Health Information log page (NVMe Base 2.0, "SMART / Health
# Information Log Page", Log Identifier 02h)
# ---------------------------------------------------------------------------
S = dict(
    critical_warning=0x00,      # no warning
    temperature=318,            # Composite Temperature, kelvins (45 C)
    avail_spare=100,            # Available Spare, percent
    spare_thresh=10,            # Available Spare Threshold, percent
    percent_used=3,             # Percentage Used
    data_units_read=9876543,    # Data Units Read: thousands of 512-byte units
    data_units_written=12345678,  # Data Units Written
    host_reads=123456789,       # Host Read Commands
    host_writes=234567890,      # Host Write Commands
    ctrl_busy_time=4321,        # Controller Busy Time, minutes
    power_cycles=512,           # Power Cycles
    power_on_hours=3456,        # Power On Hours
    unsafe_shutdowns=37,        # Unsafe Shutdowns
    media_errors=1,             # Media and Data Integrity Errors
    num_err_log_entries=12,     # Number of Error Information Log Entries
    wctt=15,                    # Warning Composite Temperature Time, minutes
    cctt=2,                     # Critical Composite Temperature Time, minutes
    temp_sensor=[318, 325],     # Temperature Sensor 1 and 2, kelvins
    tmt1_count=41,              # Thermal Management Temperature 1 Transition Count
    tmt2_count=3,               # Thermal Management Temperature 2 Transition Count
    tmt1_time=1234,             # Total Time For Thermal Management Temperature 1, seconds
    tmt2_time=56,               # Total Time For Thermal Management Temperature 2, seconds
)

smart = Page(512)
smart.u8(0, S["critical_warning"], "Critical Warning 0")
smart.u16(1, S["temperature"], "Composite Temperature 2:1")
smart.u8(3, S["avail_spare"], "Available Spare 3")
smart.u8(4, S["spare_thresh"], "Available Spare Threshold 4")
smart.u8(5, S["percent_used"], "Percentage Used 5")
smart.u128(32, S["data_units_read"], "Data Units Read 47:32")
smart.u128(48, S["data_units_written"], "Data Units Written 63:48")
smart.u128(64, S["host_reads"], "Host Read Commands 79:64")
smart.u128(80, S["host_writes"], "Host Write Commands 95:80")
smart.u128(96, S["ctrl_busy_time"], "Controller Busy Time 111:96")
smart.u128(112, S["power_cycles"], "Power Cycles 127:112")
smart.u128(128, S["power_on_hours"], "Power On Hours 143:128")
smart.u128(144, S["unsafe_shutdowns"], "Unsafe Shutdowns 159:144")
smart.u128(160, S["media_errors"], "Media and Data Integrity Errors 175:160")
smart.u128(176, S["num_err_log_entries"], "Number of Error Information Log Entries 191:176")
smart.u32(192, S["wctt"], "Warning Composite Temperature Time 195:192")
smart.u32(196, S["cctt"], "Critical Composite Temperature Time 199:196")
for i, k in enumerate(S["temp_sensor"]):
    smart.u16(200 + 2 * i, k, f"Temperature Sensor {i + 1} {201 + 2 * i}:{200 + 2 * i}")
smart.u32(216, S["tmt1_count"], "Thermal Management Temperature 1 Transition Count 219:216")
smart.u32(220, S["tmt2_count"], "Thermal Management Temperature 2 Transition Count 223:220")
smart.u32(224, S["tmt1_time"], "Total Time For Thermal Management Temperature 1 227:224")
smart.u32(228, S["tmt2_time"], "Total Time For Thermal Management Temperature 2 231:228")

# ---------------------------------------------------------------------------
# Sanitize Status log page (NVMe Base 2.0, "Sanitize Status Log Page", Log
# Identifier 81h).  SSTAT bits 2:0: 1 completed, 2 in progress, 3 failed;
# bit 8 Global Data Erased.  SCDW10 is Command Dword 10 of the Sanitize
# command that started the operation (SANACT 100b: crypto erase).
# ---------------------------------------------------------------------------
SAN_CRYPTO = 4


def sanitize_page(sprog, sstat, scdw10):
    p = Page(512)
    p.u16(0, sprog, "SPROG 1:0 (progress, n/65536)")
    p.u16(2, sstat, "SSTAT 3:2")
    p.u32(4, scdw10, "SCDW10 7:4")
    p.u32(8, 0xFFFFFFFF, "Estimated Time For Overwrite 11:8 (none)")
    p.u32(12, 120, "Estimated Time For Block Erase 15:12, seconds")
    p.u32(16, 10, "Estimated Time For Crypto Erase 19:16, seconds")
    return p


SAN = {
    "sanitize-running": dict(sprog=0x4000, sstat=0x0002, scdw10=SAN_CRYPTO),
    "sanitize-done": dict(sprog=0xFFFF, sstat=0x0101, scdw10=SAN_CRYPTO),
    "sanitize-failed": dict(sprog=0x0000, sstat=0x0003, scdw10=SAN_CRYPTO),
}


def write(name, page):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(bytes(page.b))


write("id-ctrl.bin", ctrl)
write("id-ns.bin", ns)
write("smart.bin", smart)
for name, v in SAN.items():
    write(name + ".bin", sanitize_page(**v))

# ---------------------------------------------------------------------------
# What the decoders must make of them (units as in slcscope/probe.h)
# ---------------------------------------------------------------------------
ver = C["ver"]
in_use = N["flbas"] & 0x0F
lba_bytes = 1 << N["lbaf"][in_use][1]
expected = {
    "id_ctrl": {
        "model": C["mn"],
        "serial": C["sn"],
        "firmware": C["fr"],
        "pci_vendor": C["vid"],
        "nvme_version": f"{ver >> 16}.{(ver >> 8) & 0xFF}",
        "format_nvm": (C["oacs"] >> 1) & 1,
        "crypto_erase": (C["fna"] >> 2) & 1,
        "sanitize_crypto": C["sanicap"] & 1,
        "sanitize_block": (C["sanicap"] >> 1) & 1,
        "sanitize_overwrite": (C["sanicap"] >> 2) & 1,
        "vwc_present": C["vwc"] & 1,
        "warn_temp_c": C["wctemp"] - 273,
        "crit_temp_c": C["cctemp"] - 273,
    },
    "id_ns": {
        "n_lba_formats": N["nlbaf"] + 1,
        "lba_formats": [
            {"data_bytes": 1 << lbads, "metadata_bytes": ms, "rel_perf": rp, "in_use": int(i == in_use)}
            for i, (ms, lbads, rp) in enumerate(N["lbaf"])
        ],
        "logical_block_bytes": lba_bytes,
        "capacity_bytes": N["nsze"] * lba_bytes,
    },
    "smart": {
        "critical_warning": S["critical_warning"],
        "temp_c": S["temperature"] - 273,
        "available_spare": S["avail_spare"],
        "available_spare_threshold": S["spare_thresh"],
        "percentage_used": S["percent_used"],
        "host_read_bytes": S["data_units_read"] * 512000,
        "host_write_bytes": S["data_units_written"] * 512000,
        "host_read_cmds": S["host_reads"],
        "host_write_cmds": S["host_writes"],
        "power_cycles": S["power_cycles"],
        "power_on_hours": S["power_on_hours"],
        "unsafe_shutdowns": S["unsafe_shutdowns"],
        "media_errors": S["media_errors"],
        "warn_temp_time_min": S["wctt"],
        "crit_temp_time_min": S["cctt"],
        "thm_transitions": [S["tmt1_count"], S["tmt2_count"]],
        "thm_time_s": [S["tmt1_time"], S["tmt2_time"]],
    },
    "sanitize": {
        name: {"progress": v["sprog"] / 65536.0, "status": v["sstat"] & 7,
               "global_data_erased": (v["sstat"] >> 8) & 1, "sanact": v["scdw10"] & 7}
        for name, v in SAN.items()
    },
}
with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f, indent=2)
    f.write("\n")
