//! A PNG or JPEG receipt made ready for a page: decoded by `image` (within limits, so a
//! hostile file cannot take the server's memory), turned upright by its EXIF orientation,
//! brought down to print resolution, the transparent parts on white. A photo goes back
//! into the file as JPEG, a PNG (a screenshot, a scan) losslessly compressed.

use std::io::Cursor;

use image::{
    codecs::jpeg::JpegEncoder, DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits,
};

use super::Unshown;

/// The longest side kept: about 200 dpi across a Letter page, plenty for a receipt.
const MAX_SIDE: u32 = 2000;
/// Pixels of one picture, checked from its header before it is decoded: a 12 MP phone
/// photo, a 20 MP camera; a larger one is named, not shown (its samples alone would be
/// 100 MB and more).
pub const MAX_PIXELS: u64 = 24_000_000;
/// The decoded samples of one picture: 24 MP of RGB (a PNG with transparency, four bytes a
/// pixel, may have 18 MP). With the server's own room this keeps a packet under 200 MiB.
pub const MAX_DECODED_BYTES: u64 = MAX_PIXELS * 3;
const MAX_DIMENSION: u32 = 16_000;
const JPEG_QUALITY: u8 = 85;

/// Pixels as a PDF image takes them.
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub gray: bool,
    /// JPEG (DCT) data, or zlib-compressed samples.
    pub jpeg: bool,
    pub data: Vec<u8>,
}

/// The picture of a receipt of `content_type` (image/png or image/jpeg).
pub fn picture(content_type: &str, bytes: &[u8]) -> Result<Picture, Unshown> {
    let format = match content_type {
        "image/png" => ImageFormat::Png,
        "image/jpeg" => ImageFormat::Jpeg,
        other => return Err(Unshown(format!("Files of type {other} cannot be shown here."))),
    };
    let unreadable = |e: image::ImageError| {
        tracing::info!(error = %e, "a receipt image could not be read");
        Unshown("The image could not be read; it may be damaged or too large.".into())
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODED_BYTES + 4 * 1024 * 1024);
    limits.max_image_width = Some(MAX_DIMENSION);
    limits.max_image_height = Some(MAX_DIMENSION);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(unreadable)?;
    let (w, h) = decoder.dimensions();
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(Unshown(format!(
            "The image is {w} × {h} pixels; one of more than {} megapixels is not shown here. Open the receipt from the request in MentorPay to see it.",
            MAX_PIXELS / 1_000_000
        )));
    }
    if decoder.total_bytes() > MAX_DECODED_BYTES {
        return Err(Unshown(format!(
            "The image is {w} × {h} pixels, {} MB once decoded; one of more than {} MB is not shown here. Open the receipt from the request in MentorPay to see it.",
            decoder.total_bytes() / (1024 * 1024),
            MAX_DECODED_BYTES / (1024 * 1024)
        )));
    }
    let orientation = decoder.orientation().unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut img = DynamicImage::from_decoder(decoder).map_err(unreadable)?;
    // Brought down before it is turned: the box is square, so the order does not change the
    // result, and turning the full-size picture would hold a second copy of it.
    // `thumbnail` averages the pixels each output pixel covers in integers; `resize` would
    // first hold a float copy of the full-height picture (150 MB for 24 MP).
    if img.width().max(img.height()) > MAX_SIDE {
        img = img.thumbnail(MAX_SIDE, MAX_SIDE);
    }
    img.apply_orientation(orientation);
    let gray = !img.color().has_color();
    let (width, height) = (img.width(), img.height());
    let samples = if gray { on_white_gray(img) } else { on_white_rgb(img) };
    let (jpeg, data) = if format == ImageFormat::Jpeg {
        let mut out = Vec::new();
        let color =
            if gray { image::ExtendedColorType::L8 } else { image::ExtendedColorType::Rgb8 };
        JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
            .encode(&samples, width, height, color)
            .map_err(unreadable)?;
        (true, out)
    } else {
        (false, miniz_oxide::deflate::compress_to_vec_zlib(&samples, 6))
    };
    Ok(Picture { width, height, gray, jpeg, data })
}

/// 8-bit gray samples, what is transparent made white.
fn on_white_gray(img: DynamicImage) -> Vec<u8> {
    img.into_luma_alpha8().pixels().map(|p| over_white(p.0[0], p.0[1])).collect()
}

/// 8-bit RGB samples, what is transparent made white.
fn on_white_rgb(img: DynamicImage) -> Vec<u8> {
    if !img.color().has_alpha() {
        return img.into_rgb8().into_raw();
    }
    let rgba = img.into_rgba8();
    let mut out = Vec::with_capacity(rgba.len() / 4 * 3);
    for p in rgba.pixels() {
        let [r, g, b, a] = p.0;
        out.extend([over_white(r, a), over_white(g, a), over_white(b, a)]);
    }
    out
}

fn over_white(value: u8, alpha: u8) -> u8 {
    let (v, a) = (u32::from(value), u32::from(alpha));
    ((v * a + 255 * (255 - a) + 127) / 255) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{ImageEncoder, Rgba, RgbaImage};

    fn png(img: &RgbaImage) -> Vec<u8> {
        let mut out = Vec::new();
        image::codecs::png::PngEncoder::new(&mut out)
            .write_image(img, img.width(), img.height(), image::ExtendedColorType::Rgba8)
            .unwrap();
        out
    }

    #[test]
    fn transparent_pixels_print_on_white_and_large_pictures_shrink() {
        let img = RgbaImage::from_fn(3000, 10, |x, _| {
            if x < 300 {
                Rgba([0, 0, 0, 0])
            } else {
                Rgba([200, 0, 0, 255])
            }
        });
        let pic = picture("image/png", &png(&img)).unwrap();
        assert_eq!((pic.width, pic.gray, pic.jpeg), (MAX_SIDE, false, false));
        let samples = miniz_oxide::inflate::decompress_to_vec_zlib(&pic.data).unwrap();
        assert_eq!(samples.len() as u32, pic.width * pic.height * 3);
        assert_eq!(&samples[..3], &[255, 255, 255], "transparent is white");
    }

    #[test]
    fn bad_bytes_are_unshown_not_an_error_of_the_packet() {
        assert!(picture("image/png", b"\x89PNG\r\n\x1a\nnot really").is_err());
        assert!(picture("image/jpeg", &[0xFF, 0xD8, 0xFF, 0x00]).is_err());
        assert!(picture("image/heic", b"").is_err());
    }

    /// A PNG's signature and header chunk for `width` x `height` of `color` (2 RGB, 6 RGBA),
    /// with no pixels: enough for the checks made before decoding.
    fn png_header(width: u32, height: u32, color: u8) -> Vec<u8> {
        let mut header = width.to_be_bytes().to_vec();
        header.extend(height.to_be_bytes());
        header.extend([8, color, 0, 0, 0]);
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        for (kind, data) in [(b"IHDR", header), (b"IDAT", vec![]), (b"IEND", vec![])] {
            let mut crc = flate2::Crc::new();
            crc.update(kind);
            crc.update(&data);
            out.extend((data.len() as u32).to_be_bytes());
            out.extend(kind);
            out.extend(&data);
            out.extend(crc.sum().to_be_bytes());
        }
        out
    }

    #[test]
    fn pictures_past_the_pixel_or_byte_limits_are_named_from_their_header() {
        let why = |bytes: Vec<u8>| picture("image/png", &bytes).err().unwrap().0;
        // 30 MP.
        let said = why(png_header(6000, 5000, 6));
        assert!(
            said.starts_with("The image is 6000 × 5000 pixels; one of more than 24 megapixels"),
            "{said}"
        );
        // 20 MP, but four bytes a pixel: 76 MB decoded.
        let said = why(png_header(4000, 5000, 6));
        assert!(said.starts_with("The image is 4000 × 5000 pixels, 76 MB once decoded"), "{said}");
        // The same picture without transparency passes the checks (and then has no pixels).
        let said = why(png_header(4000, 5000, 2));
        assert!(said.starts_with("The image could not be read"), "{said}");
        assert_eq!(over_white(0, 0), 255);
        assert_eq!(over_white(10, 255), 10);
    }
}
