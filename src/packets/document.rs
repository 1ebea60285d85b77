//! A packet on its way out: a task reads the parts in order (the cover, then per request
//! its words and each receipt's bytes) and hands them over a short channel to the PDF
//! writer on a blocking thread, which lays each out and lets it go. At most a couple of
//! receipts wait at a time, so memory stays flat however many requests a packet holds;
//! a client that goes away stops the reading.

use actix_web::{web::Bytes, HttpResponse};
use sea_orm::DatabaseConnection;
use tokio::sync::mpsc;

use super::{
    facts::{self, Names},
    pdf::{open, picture, Packet, Unshown},
    sheet::{self, Cover, Receipt, Sheet, Shown},
};
use crate::{
    entities::payment_request as pr, error::ApiResult, file_store::FileStore,
    reports::export::respond_pdf,
};

/// One piece of a packet, in the order it prints.
enum Part {
    Cover(Cover),
    Request(Sheet),
    /// A receipt of the request before it: its place among them and its bytes (None when
    /// the store could not give them).
    Receipt {
        receipt: Receipt,
        index: usize,
        count: usize,
        bytes: Option<Bytes>,
    },
    /// A request of a vendor payment that can no longer be read.
    Missing(i32),
}

type Parts = mpsc::Sender<anyhow::Result<Part>>;

/// Parts read ahead of the writer: one receipt being laid out, one or two waiting.
const AHEAD: usize = 2;

/// The answer: `file_name`, made of the parts `read` sends.
fn stream<F, Fut>(file_name: String, title: String, author: String, read: F) -> HttpResponse
where
    F: FnOnce(Parts) -> Fut + 'static,
    Fut: std::future::Future<Output = ApiResult<()>> + 'static,
{
    let (tx, rx) = mpsc::channel(AHEAD);
    let failed = tx.clone();
    actix_web::rt::spawn(async move {
        if let Err(e) = read(tx).await {
            let _ = failed.send(Err(anyhow::anyhow!("{e}"))).await;
        }
    });
    respond_pdf(file_name, move |out| write(rx, &title, &author, out))
}

/// Sends a part; false when the writer is gone (the client went away).
async fn send(tx: &Parts, part: Part) -> bool {
    tx.send(Ok(part)).await.is_ok()
}

/// Sends a request's words, then its receipts one by one.
async fn request_parts(
    db: &DatabaseConnection,
    files: &FileStore,
    names: &Names,
    r: pr::Model,
    offset: i32,
    tx: &Parts,
) -> ApiResult<bool> {
    let sheet = sheet::sheet(&facts::request(db, names, r).await?, offset);
    let receipts = sheet.receipts.clone();
    if !send(tx, Part::Request(sheet)).await {
        return Ok(false);
    }
    let count = receipts.len();
    for (index, receipt) in receipts.into_iter().enumerate() {
        let bytes = match receipt.shown() {
            Shown::Named => None,
            _ => match files.read(&receipt.file_id).await {
                Ok(bytes) => Some(bytes),
                Err(e) => {
                    tracing::warn!(error = %e, file_id = %receipt.file_id, "a receipt's bytes could not be read for a packet");
                    None
                }
            },
        };
        if !send(tx, Part::Receipt { receipt, index, count, bytes }).await {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The packet of one request.
pub fn request(
    db: DatabaseConnection,
    files: FileStore,
    author: String,
    r: pr::Model,
    offset: i32,
) -> HttpResponse {
    let title = format!("Payment request {}", sheet::key(&r));
    stream(sheet::file_name(&r), title, author, move |tx| async move {
        let names = Names::load(&db).await?;
        request_parts(&db, &files, &names, r, offset, &tx).await.map(drop)
    })
}

/// The packet of a vendor payment: its cover, then each request's packet in row order.
pub fn vendor_payment(
    db: DatabaseConnection,
    files: FileStore,
    author: String,
    cover: Cover,
    requests: Vec<i32>,
    file_name: String,
    offset: i32,
) -> HttpResponse {
    let title = cover.title.clone();
    stream(file_name, title, author, move |tx| async move {
        if !send(&tx, Part::Cover(cover)).await {
            return Ok(());
        }
        let names = Names::load(&db).await?;
        for id in requests {
            let going = match facts::paid_request(&db, id).await? {
                Some(r) => request_parts(&db, &files, &names, r, offset, &tx).await?,
                None => send(&tx, Part::Missing(id)).await,
            };
            if !going {
                break;
            }
        }
        Ok(())
    })
}

/// Lays the parts out as they come (on the blocking thread).
fn write(
    mut rx: mpsc::Receiver<anyhow::Result<Part>>,
    title: &str,
    author: &str,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let mut packet = Packet::new(out, title, author)?;
    // The vendor payment's name leads every request's footer in its packet.
    let mut lead = String::new();
    while let Some(part) = rx.blocking_recv() {
        match part? {
            Part::Cover(cover) => {
                lead = format!("{} · ", cover.title);
                write_cover(&mut packet, &cover)?;
            }
            Part::Request(sheet) => write_sheet(&mut packet, &lead, &sheet)?,
            Part::Receipt { receipt, index, count, bytes } => {
                write_receipt(&mut packet, &receipt, (index, count), bytes.as_deref())?
            }
            Part::Missing(id) => {
                packet.start_part(&format!("{lead}Request #{id}"))?;
                packet.heading(1, &format!("Payment request #{id}"))?;
                packet.paragraph("This request can no longer be read.")?;
            }
        }
    }
    packet.finish()
}

fn write_cover(packet: &mut Packet<impl std::io::Write>, cover: &Cover) -> anyhow::Result<()> {
    packet.start_part(&cover.title)?;
    packet.heading(1, &cover.title)?;
    packet.paragraph("The file of this vendor payment: each request with its approval, activity and receipts follows, in the payment's order.")?;
    packet.fields(&cover.fields)?;
    packet.heading(2, "Requests in this payment")?;
    packet.table(&sheet::COVER_HEADERS, &sheet::COVER_WIDTHS, &cover.rows)
}

fn write_sheet(
    packet: &mut Packet<impl std::io::Write>,
    lead: &str,
    s: &Sheet,
) -> anyhow::Result<()> {
    packet.start_part(&format!("{lead}Request {}", s.key))?;
    packet.heading(1, &s.title)?;
    packet.paragraph(&s.summary)?;
    packet.heading(2, "Request")?;
    packet.fields(&s.request)?;
    packet.heading(2, "Form details")?;
    if s.form.is_empty() {
        packet.paragraph("This form has no further fields.")?;
    } else {
        packet.fields(&s.form)?;
    }
    packet.heading(2, "Approval")?;
    packet.fields(&s.approval)?;
    packet.heading(2, "Activity")?;
    if s.activity.is_empty() {
        packet.paragraph("No activity recorded.")?;
    } else {
        packet.table(&sheet::ACTIVITY_HEADERS, &sheet::ACTIVITY_WIDTHS, &s.activity)?;
    }
    packet.heading(2, "Receipts")?;
    if s.receipts.is_empty() {
        packet.paragraph("No receipts.")?;
    }
    let count = s.receipts.len();
    for (i, r) in s.receipts.iter().enumerate() {
        let how = match r.shown() {
            Shown::Pages => "its pages follow",
            Shown::Picture => "shown on a page of its own",
            Shown::Named => "cannot be shown here",
        };
        packet.paragraph(&format!("{}. {} ({how})", receipt_place((i, count)), r.name))?;
    }
    Ok(())
}

fn receipt_place((index, count): (usize, usize)) -> String {
    format!("Receipt {} of {count}", index + 1)
}

fn write_receipt(
    packet: &mut Packet<impl std::io::Write>,
    receipt: &Receipt,
    place: (usize, usize),
    bytes: Option<&[u8]>,
) -> anyhow::Result<()> {
    let caption = format!("{}: {}", receipt_place(place), receipt.name);
    let Unshown(why) = match (receipt.shown(), bytes) {
        (Shown::Named, _) => Unshown(
            "HEIC images cannot be shown in this packet. Open the receipt from the request in MentorPay to see it.".into(),
        ),
        (_, None) => Unshown("The stored file could not be read.".into()),
        (Shown::Pages, Some(bytes)) => match open(bytes) {
            Ok(doc) => return packet.pdf_pages(&receipt.name, &doc).map(drop),
            Err(why) => why,
        },
        (Shown::Picture, Some(bytes)) => match picture(&receipt.content_type, bytes) {
            Ok(pic) => {
                return packet.picture_page(&caption, &format!("Receipt {}", receipt.name), pic)
            }
            Err(why) => why,
        },
    };
    packet.new_page()?;
    packet.heading(2, &caption)?;
    packet.paragraph(&why)
}
