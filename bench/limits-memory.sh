#!/usr/bin/env bash
# Memory through hostile files: the release binary on a fresh database, then
#   - participant imports (DryRun) of an XLSX whose only cells are A1 and XFD1048576, one
#     ending at XFD1000, one of 10,002 sparse rows, and a zip bomb (100 MB of shared strings);
#   - one F2 request whose receipts are PDFs of 8 and of 16 object streams of 60 MB each once
#     unpacked; another whose receipts are a 6000 x 5000 PNG and a 24-megapixel RGBA PNG (both
#     refused from their headers) and the largest picture shown (a 24-megapixel RGB PNG,
#     decoded); both packets downloaded.
# Prints each answer, the server's resident size before (VmRSS) and its peak (VmHWM) during
# the imports and during each packet (reset between them through /proc/PID/clear_refs).
# Target: the peak stays under 200 MiB. Not part of `make test`. Needs curl and python3.
#   BIN: see bench/lib.sh
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
: "${PORT:=18093}"
KEEP= # a fresh database each run
need curl python3
build_release
work_in
serve
ADMIN=$(sign_in "$MENTORPAY_ADMIN_EMAIL" "$MENTORPAY_ADMIN_PASSWORD")
call() { # METHOD PATH [BODY] as the admin
  curl -sf -X "$1" -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' \
    ${3:+-d "$3"} "$BASE/api/v1$2"
}
field() { sed -E "s/.*\"$1\":\"?([^\",}]+)\"?.*/\1/"; }
first_id() { sed -E 's/^\[\{"id":([0-9]+).*/\1/'; }
TODAY=$(date -u +%F)
FY=$(call POST /system-settings/fiscal-years "{\"name\":\"$FY1_NAME\",\"startDate\":\"$FY1_START\",\"endDate\":\"$FY1_END\"}" | sed -E 's/^\{"id":([0-9]+).*/\1/')
PROGRAM=$(call GET /mentor-programs | first_id)
PARTICIPATION=$(call POST /participants "{\"firstName\":\"Pat\",\"lastName\":\"Bench\",\"email\":\"pat@example.org\",\"status\":\"Active\",\"roleCode\":\"Mentor\",\"participations\":[{\"mentorProgramId\":$PROGRAM,\"fiscalYearId\":$FY,\"roleCode\":\"Mentor\",\"startDate\":\"$FY1_START\"}]}" \
  | sed -E 's/.*"participations":\[\{"id":([0-9]+).*/\1/')

python3 - "$WORK" <<'PY'
import struct, sys, zipfile, zlib
work = sys.argv[1]
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
def column(n):
    name = ""
    while n:
        n, r = divmod(n - 1, 26)
        name = chr(65 + r) + name
    return name
def workbook(path, cells, dimension):
    rows = {}
    for r, c in cells:
        rows.setdefault(r, []).append(c)
    data = "".join(
        f'<row r="{r}">' + "".join(f'<c r="{column(c)}{r}" t="inlineStr"><is><t>x</t></is></c>' for c in cs) + "</row>"
        for r, cs in sorted(rows.items()))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
        z.writestr("_rels/.rels", f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<workbook {NS} xmlns:r="{REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
        z.writestr("xl/worksheets/sheet1.xml", f'<worksheet {NS}><dimension ref="{dimension}"/><sheetData>{data}</sheetData></worksheet>')
workbook(f"{work}/far.xlsx", [(1, 1), (1048576, 16384)], "A1:XFD1048576")
workbook(f"{work}/wide.xlsx", [(1, 1), (1000, 16384)], "A1:XFD1000")
workbook(f"{work}/long.xlsx", [(1 + 100 * i, 1) for i in range(10002)], "A1:A1000102")
with zipfile.ZipFile(f"{work}/bomb.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
    with z.open("xl/sharedStrings.xml", "w") as part:
        for _ in range(100):
            part.write(b"a" * (1 << 20))

def pdf_bomb(path, streams, mb):
    header = b"100 0 "
    c = zlib.compressobj(9)
    data = c.compress(header + b"(")
    for _ in range(mb):
        data += c.compress(b"a" * (1 << 20))
    data += c.compress(b")") + c.flush()
    def stream(d, body):
        return d + b"\nstream\n" + body + b"\nendstream"
    content = b"0 0 m 100 100 l S"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
               stream(b"<< /Length %d >>" % len(content), content)]
    objects += [stream(b"<< /Type /ObjStm /N 1 /First %d /Filter /FlateDecode /Length %d >>" % (len(header), len(data)), data)] * streams
    out, offsets = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), []
    for i, o in enumerate(objects):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    open(path, "wb").write(out)
pdf_bomb(f"{work}/bomb-8.pdf", 8, 60)
pdf_bomb(f"{work}/bomb-16.pdf", 16, 60)

def png(path, width, height, alpha):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    c = zlib.compressobj(9)
    row = b"\x00" + (b"\x80\x40\x20\xff" if alpha else b"\x80\x40\x20") * width
    data = b"".join(c.compress(row) for _ in range(height)) + c.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b""))
png(f"{work}/huge.png", 6000, 5000, True)
png(f"{work}/rgba.png", 4896, 4896, True)
png(f"{work}/largest.png", 4896, 4896, False)
PY

grep VmRSS /proc/$SERVER/status | sed 's/^/server before: /'
echo 5 > /proc/$SERVER/clear_refs
for f in far wide long bomb; do
  curl -s -o "$WORK/out.json" -w "import $f.xlsx ($(stat -c %s "$WORK/$f.xlsx") bytes): HTTP %{http_code} in %{time_total} s: " \
    -H "Authorization: Bearer $ADMIN" -F "file=@$WORK/$f.xlsx" "$BASE/api/v1/participants/import?DryRun=true"
  sed -E 's/.*"file":\["([^"]*)".*/\1/' "$WORK/out.json"; echo
done
grep VmHWM /proc/$SERVER/status | sed 's/^/server peak during the imports: /'
# The peak is reset before each packet, so each figure is that packet's own.
packet() { # LABEL FILE:TYPE...
  local label=$1 ids="" f name type slot id
  shift
  for f in "$@"; do
    name=${f%%:*}; type=${f#*:}
    slot=$(call POST /fileupload/generate-upload-urls "{\"files\":[{\"fileName\":\"$name\",\"contentType\":\"$type\",\"size\":$(stat -c %s "$WORK/$name")}]}")
    curl -sf -X PUT -H "Content-Type: $type" --data-binary "@$WORK/$name" "$BASE$(echo "$slot" | field uploadUrl | sed 's/\\u0026/\&/g')" >/dev/null
    echo "receipt $name: $(stat -c %s "$WORK/$name") bytes"
    ids="$ids${ids:+,}\"$(echo "$slot" | field fileId)\""
  done
  id=$(call POST /payment-requests/F2 "{\"participationId\":$PARTICIPATION,\"description\":\"$label\",\"details\":{\"items\":[{\"date\":\"$TODAY\",\"description\":\"Books\",\"amount\":12.5}],\"fileIds\":[$ids]}}" \
    | sed -E 's/^\{"id":([0-9]+).*/\1/')
  echo 5 > /proc/$SERVER/clear_refs
  curl -s -o "$WORK/packet.pdf" -w "packet of $label: HTTP %{http_code} in %{time_total} s, %{size_download} bytes\n" \
    -H "Authorization: Bearer $ADMIN" "$BASE/api/v1/payment-requests/F2/$id/packet"
  if command -v pdftotext >/dev/null; then
    pdftotext "$WORK/packet.pdf" - | grep -E "unpacks to|pixels" | cut -c1-90 | sed 's/^/  says: /'
  fi
  grep VmHWM /proc/$SERVER/status | sed "s/^/server peak during it: /"
}
packet "the PDF bombs" bomb-8.pdf:application/pdf bomb-16.pdf:application/pdf
packet "the pictures" huge.png:image/png rgba.png:image/png largest.png:image/png
