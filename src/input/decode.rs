//! Decoders of gzip, zstd, xz and bzip2 streams that hand over every byte they decoded before
//! they report damage.
//!
//! The crates' own readers (`flate2`'s `MultiGzDecoder`, `zstd`'s, `liblzma`'s and `bzip2`'s)
//! return an error from the read that meets damage, and the bytes that same read had already
//! decoded into the caller's buffer went with it: up to a whole buffer of good data (hundreds of
//! records, 160 of 500 for an xz file whose only damage was its footer) was never read, and the
//! error's "after line N" stopped short of the damage. These drive each crate's low-level
//! decoder, count what every call of it produced, hand that over, and report the error on the
//! next read ([`Salvaged`]).
//!
//! zstd's decoder does not count what a call wrote before it failed, so it is fed one step at a
//! time (a block, a header): a call that fails has not written anything yet.

use std::io::{self, BufRead, BufReader, Read};

use super::compressed::Stream;

/// Bytes of compressed input read at a time.
const INPUT: usize = 64 * 1024;

/// One read of a decoder: the bytes it produced into the buffer, and the error that ended it
/// if one did (after those bytes).
type Produced = (usize, io::Result<()>);

/// A decoder that says how many bytes it produced when it fails.
trait Produce {
    fn produce(&mut self, buf: &mut [u8]) -> Produced;
}

/// A decoder's bytes before its error, then the error, which every later read repeats.
struct Salvaged<D> {
    decoder: D,
    /// The error met after the bytes last handed over, reported by the next read.
    deferred: Option<io::Error>,
    /// The error reported: the decoder is not called again.
    failed: Option<(io::ErrorKind, String)>,
}

impl<D: Produce + Send + 'static> Salvaged<D> {
    fn boxed(decoder: D) -> Stream {
        Box::new(Salvaged {
            decoder,
            deferred: None,
            failed: None,
        })
    }
}

impl<D: Produce> Read for Salvaged<D> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some((kind, message)) = &self.failed {
            return Err(io::Error::new(*kind, message.clone()));
        }
        let error = match self.deferred.take() {
            Some(e) => e,
            None if buf.is_empty() => return Ok(0),
            None => match self.decoder.produce(buf) {
                (n, Ok(())) => return Ok(n),
                // the input's read was interrupted before the decoder ran: ask again
                (0, Err(e)) if e.kind() == io::ErrorKind::Interrupted => return Err(e),
                (0, Err(e)) => e,
                (n, Err(e)) => {
                    self.deferred = Some(e);
                    return Ok(n);
                }
            },
        };
        self.failed = Some((error.kind(), error.to_string()));
        Err(error)
    }
}

fn data_error(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

fn cut_short(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, message)
}

/// A gzip stream of one member or more (`cat a.gz b.gz`, pigz), each checked against its
/// trailer (CRC-32 and length).
pub(crate) fn gzip(raw: Stream) -> Stream {
    inflater(raw, Part::Header)
}

/// Raw deflate data (a zip entry's), checked by the caller.
pub(crate) fn deflate(raw: Stream) -> Stream {
    inflater(raw, Part::Data)
}

fn inflater(raw: Stream, part: Part) -> Stream {
    Salvaged::boxed(Gzip {
        src: BufReader::with_capacity(INPUT, raw),
        inflate: flate2::Decompress::new(false),
        crc: crc32fast::Hasher::new(),
        length: 0,
        framed: part == Part::Header,
        part,
    })
}

struct Gzip {
    src: BufReader<Stream>,
    inflate: flate2::Decompress,
    /// CRC-32 and length of the member's data so far.
    crc: crc32fast::Hasher,
    length: u64,
    /// gzip members around the data; raw deflate (a zip entry) ends with its data.
    framed: bool,
    part: Part,
}

/// Where a gzip stream is: the part of a member read next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Header,
    Data,
    Trailer,
    /// A member's trailer was read: another member or the end follows.
    Between,
    /// Raw deflate data ended.
    End,
}

impl Gzip {
    /// The next byte of a header or trailer, added to `hash` when given.
    fn byte(&mut self, hash: Option<&mut crc32fast::Hasher>) -> io::Result<u8> {
        let b = match self.src.fill_buf()? {
            [] => return Err(cut_short("unexpected end of file")),
            [b, ..] => *b,
        };
        self.src.consume(1);
        if let Some(hash) = hash {
            hash.update(&[b]);
        }
        Ok(b)
    }

    /// A little-endian number of `n` bytes, at most 4.
    fn le(&mut self, n: usize, mut hash: Option<&mut crc32fast::Hasher>) -> io::Result<u32> {
        debug_assert!(n <= 4);
        let mut value = 0u32;
        for i in 0..n {
            value |= u32::from(self.byte(hash.as_deref_mut())?) << (8 * i);
        }
        Ok(value)
    }

    /// Reads a member's header (RFC 1952): the fixed ten bytes, then its optional fields.
    fn header(&mut self) -> io::Result<()> {
        let mut hash = crc32fast::Hasher::new();
        let id = self.le(2, Some(&mut hash))?;
        let method = self.byte(Some(&mut hash))?;
        let flags = self.byte(Some(&mut hash))?;
        if id != 0x8b1f || method != 8 || flags & 0xe0 != 0 {
            return Err(data_error("invalid gzip header"));
        }
        for _ in 0..6 {
            self.byte(Some(&mut hash))?; // time, extra flags, system
        }
        if flags & 0x04 != 0 {
            let extra = self.le(2, Some(&mut hash))?;
            for _ in 0..extra {
                self.byte(Some(&mut hash))?;
            }
        }
        for field in [0x08, 0x10] {
            // a file name, a comment: ended by a NUL
            if flags & field != 0 {
                while self.byte(Some(&mut hash))? != 0 {}
            }
        }
        if flags & 0x02 != 0 && self.le(2, None)? != hash.finalize() & 0xffff {
            return Err(data_error(
                "the header's checksum does not match the header",
            ));
        }
        Ok(())
    }

    fn trailer(&mut self) -> io::Result<()> {
        let crc = self.le(4, None)?;
        let length = self.le(4, None)?;
        let hash = std::mem::take(&mut self.crc);
        if crc != hash.finalize() || u64::from(length) != self.length & 0xffff_ffff {
            return Err(data_error(
                "the checksum or length at the end of a member does not match its data",
            ));
        }
        Ok(())
    }

    /// One call of the inflater: the bytes it produced, and whether the member's data ended.
    fn inflate(&mut self, buf: &mut [u8]) -> io::Result<(usize, Result<bool, io::Error>)> {
        let input = self.src.fill_buf()?;
        let end = input.is_empty();
        let (read, written) = (self.inflate.total_in(), self.inflate.total_out());
        let flush = if end {
            flate2::FlushDecompress::Finish
        } else {
            flate2::FlushDecompress::None
        };
        let status = self.inflate.decompress(input, buf, flush);
        let consumed = (self.inflate.total_in() - read) as usize;
        let n = (self.inflate.total_out() - written) as usize;
        self.src.consume(consumed);
        self.crc.update(&buf[..n]);
        self.length += n as u64;
        let outcome = match status {
            Err(_) => Err(data_error("corrupt deflate stream")),
            Ok(flate2::Status::StreamEnd) => Ok(true),
            Ok(_) if n == 0 && (end || consumed == 0) => {
                Err(cut_short("incomplete deflate stream"))
            }
            Ok(_) => Ok(false),
        };
        Ok((n, outcome))
    }
}

impl Produce for Gzip {
    fn produce(&mut self, buf: &mut [u8]) -> Produced {
        loop {
            let step = match self.part {
                Part::End => return (0, Ok(())),
                Part::Between => match self.src.fill_buf() {
                    Ok([]) => return (0, Ok(())),
                    // a tape's or a disk's padding, which gzip passes over with a warning
                    Ok([0, ..]) => Err(data_error(
                        "zero bytes after the last member (padding?), not another member",
                    )),
                    Ok(_) => Ok(Part::Header),
                    Err(e) => Err(e),
                },
                Part::Header => self.header().map(|()| {
                    self.inflate.reset(false);
                    self.length = 0;
                    Part::Data
                }),
                Part::Trailer => self.trailer().map(|()| Part::Between),
                Part::Data => match self.inflate(buf) {
                    Err(e) => Err(e),
                    Ok((n, Err(e))) => return (n, Err(e)),
                    Ok((n, Ok(ended))) => {
                        if ended {
                            self.part = if self.framed {
                                Part::Trailer
                            } else {
                                Part::End
                            };
                        }
                        if n > 0 {
                            return (n, Ok(()));
                        }
                        Ok(self.part)
                    }
                },
            };
            match step {
                Ok(part) => self.part = part,
                Err(e) => return (0, Err(e)),
            }
        }
    }
}

/// A zstd stream of one frame or more, skippable frames passed over.
pub(crate) fn zstd(raw: Stream) -> io::Result<Stream> {
    Ok(Salvaged::boxed(Zstd {
        src: BufReader::with_capacity(INPUT, raw),
        zstd: zstd::stream::raw::Decoder::new()?,
        hint: 0,
        full: false,
    }))
}

struct Zstd {
    src: BufReader<Stream>,
    zstd: zstd::stream::raw::Decoder<'static>,
    /// What the decoder last said it needs next (its next step, with the header of the block
    /// after it when that is a block); 0 between frames.
    hint: usize,
    /// The last call filled the buffer: the decoder may hold more of its last step's output.
    full: bool,
}

/// The size of a zstd block header, which a hint counts beyond the step it asks for.
const ZSTD_BLOCK_HEADER: usize = 3;

/// One call of the decoder over `input`: the bytes it took and produced, and the hint it gave.
fn zstd_call(
    zstd: &mut zstd::stream::raw::Decoder<'static>,
    input: &[u8],
    buf: &mut [u8],
) -> (usize, usize, io::Result<usize>) {
    use zstd::stream::raw::{InBuffer, Operation, OutBuffer};
    let mut input = InBuffer::around(input);
    let mut output = OutBuffer::around(buf);
    let hint = zstd.run(&mut input, &mut output);
    let n = output.pos();
    (input.pos(), n, hint)
}

impl Zstd {
    /// What a call of the decoder gave: its bytes, and what it holds or needs next noted.
    fn took(&mut self, n: usize, hint: io::Result<usize>, buf_len: usize) -> Produced {
        self.full = n == buf_len;
        let hint = hint.map_err(|e| {
            // a window past 128 MiB (`zstd --long=28` and up, `--ultra`), refused by `zstd -d`
            // too unless it is told the memory
            if e.to_string() == "Frame requires too much memory for decoding" {
                io::Error::new(
                    e.kind(),
                    "a frame that needs more than 128 MiB of memory to decode (made with zstd \
                     --long or --ultra?): decompress it first (zstd -d --long=31)",
                )
            } else {
                e
            }
        });
        (n, hint.map(|hint| self.hint = hint))
    }
}

impl Produce for Zstd {
    fn produce(&mut self, buf: &mut [u8]) -> Produced {
        if self.full {
            // what the last step left, before the decoder sees more input
            let (_, n, hint) = zstd_call(&mut self.zstd, &[], buf);
            let (n, outcome) = self.took(n, hint, buf.len());
            if n > 0 || outcome.is_err() {
                return (n, outcome);
            }
        }
        loop {
            let input = match self.src.fill_buf() {
                Ok(input) => input,
                Err(e) => return (0, Err(e)),
            };
            if input.is_empty() {
                return match self.hint {
                    0 => (0, Ok(())),
                    _ => (0, Err(cut_short("incomplete frame"))),
                };
            }
            // one step and no more: a call fails before it writes, so a step that fails
            // loses nothing of the one before it
            let step = match self.hint {
                h if h > ZSTD_BLOCK_HEADER => h - ZSTD_BLOCK_HEADER,
                h => h.max(1),
            };
            let input = &input[..step.min(input.len())];
            let (consumed, n, hint) = zstd_call(&mut self.zstd, input, buf);
            self.src.consume(consumed);
            let (n, outcome) = self.took(n, hint, buf.len());
            if n > 0 || outcome.is_err() {
                return (n, outcome);
            }
            if consumed == 0 {
                return (0, Err(data_error("the decoder takes no more of it")));
            }
        }
    }
}

/// An xz stream of one stream or more (`cat a.xz b.xz`, padding between them).
pub(crate) fn xz(raw: Stream) -> io::Result<Stream> {
    let stream =
        liblzma::stream::Stream::new_stream_decoder(u64::MAX, liblzma::stream::CONCATENATED)
            .map_err(io::Error::from)?;
    Ok(Salvaged::boxed(Xz {
        src: BufReader::with_capacity(INPUT, raw),
        stream,
    }))
}

struct Xz {
    src: BufReader<Stream>,
    stream: liblzma::stream::Stream,
}

impl Produce for Xz {
    fn produce(&mut self, buf: &mut [u8]) -> Produced {
        loop {
            let input = match self.src.fill_buf() {
                Ok(input) => input,
                Err(e) => return (0, Err(e)),
            };
            let end = input.is_empty();
            let action = if end {
                liblzma::stream::Action::Finish
            } else {
                liblzma::stream::Action::Run
            };
            let (read, written) = (self.stream.total_in(), self.stream.total_out());
            let status = self.stream.process(input, buf, action);
            let consumed = (self.stream.total_in() - read) as usize;
            let n = (self.stream.total_out() - written) as usize;
            self.src.consume(consumed);
            match status {
                Err(e) => return (n, Err(e.into())),
                Ok(liblzma::stream::Status::StreamEnd) => return (n, Ok(())),
                Ok(_) if n > 0 => return (n, Ok(())),
                Ok(_) if end || consumed == 0 => return (0, Err(cut_short("premature eof"))),
                Ok(_) => {}
            }
        }
    }
}

/// A bzip2 stream of one stream or more (pbzip2, `cat a.bz2 b.bz2`).
pub(crate) fn bzip2(raw: Stream) -> Stream {
    Salvaged::boxed(Bzip2 {
        src: BufReader::with_capacity(INPUT, raw),
        bz: bzip2::Decompress::new(false),
        ended: false,
    })
}

struct Bzip2 {
    src: BufReader<Stream>,
    bz: bzip2::Decompress,
    /// A stream ended: another one or the end of the input follows.
    ended: bool,
}

impl Produce for Bzip2 {
    fn produce(&mut self, buf: &mut [u8]) -> Produced {
        loop {
            let input = match self.src.fill_buf() {
                Ok(input) => input,
                Err(e) => return (0, Err(e)),
            };
            if self.ended {
                if input.is_empty() {
                    return (0, Ok(()));
                }
                self.bz = bzip2::Decompress::new(false);
                self.ended = false;
            }
            let (read, written) = (self.bz.total_in(), self.bz.total_out());
            let status = self.bz.decompress(input, buf);
            let consumed = (self.bz.total_in() - read) as usize;
            let n = (self.bz.total_out() - written) as usize;
            let end = input.is_empty();
            self.src.consume(consumed);
            match status {
                Err(e) => return (n, Err(io::Error::new(io::ErrorKind::InvalidData, e))),
                Ok(bzip2::Status::StreamEnd) => self.ended = true,
                Ok(_) if n == 0 && (end || consumed == 0) => {
                    return (
                        0,
                        Err(cut_short("decompression not finished but EOF reached")),
                    );
                }
                Ok(_) => {}
            }
            if n > 0 {
                return (n, Ok(()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// 5,000 lines of 82 bytes: several of the reads below, and several blocks of each format.
    fn text() -> Vec<u8> {
        let mut text = Vec::new();
        for i in 0..5000u32 {
            let digits: String = (0..81)
                .map(|c| char::from(b'0' + ((i * 7 + c) % 10) as u8))
                .collect();
            text.extend_from_slice(digits.as_bytes());
            text.push(b'\n');
        }
        text
    }

    fn compressed(format: &str, text: &[u8]) -> Vec<u8> {
        match format {
            "gzip" => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                e.write_all(text).unwrap();
                e.finish().unwrap()
            }
            "zstd" => {
                let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
                e.include_checksum(true).unwrap();
                e.write_all(text).unwrap();
                e.finish().unwrap()
            }
            "xz" => {
                let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
                e.write_all(text).unwrap();
                e.finish().unwrap()
            }
            "bzip2" => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
                e.write_all(text).unwrap();
                e.finish().unwrap()
            }
            _ => unreachable!(),
        }
    }

    fn decoder(format: &str, bytes: Vec<u8>) -> Stream {
        let raw: Stream = Box::new(io::Cursor::new(bytes));
        match format {
            "gzip" => gzip(raw),
            "zstd" => zstd(raw).unwrap(),
            "xz" => xz(raw).unwrap(),
            "bzip2" => bzip2(raw),
            _ => unreachable!(),
        }
    }

    /// Every byte a stream gives in reads of `size`, and the error that ends it if one does.
    fn read_all(mut stream: Stream, size: usize) -> (Vec<u8>, Option<io::Error>) {
        let mut out = Vec::new();
        let mut buf = vec![0; size];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => {
                    // the error stays: a read after it does not go on decoding
                    let again = stream.read(&mut buf).unwrap_err();
                    assert_eq!(again.to_string(), e.to_string());
                    return (out, Some(e));
                }
            }
        }
    }

    const FORMATS: [&str; 4] = ["gzip", "zstd", "xz", "bzip2"];

    #[test]
    fn streams_read_whole_in_reads_of_any_size() {
        let text = text();
        for format in FORMATS {
            let bytes = compressed(format, &text);
            // reads that end where the data ends, and where a frame or block does
            for size in [
                1,
                2,
                3,
                7,
                4096,
                1 << 20,
                text.len(),
                text.len() / 2,
                1 << 17,
            ] {
                let (out, error) = read_all(decoder(format, bytes.clone()), size);
                assert!(error.is_none(), "{format} {size}: {error:?}");
                assert!(out == text, "{format} {size}: {} bytes", out.len());
            }
            // concatenated: two streams read as one
            let two = [bytes.clone(), bytes].concat();
            let (out, error) = read_all(decoder(format, two), 1 << 17);
            assert!(error.is_none(), "{format}: {error:?}");
            assert!(out == [text.clone(), text.clone()].concat(), "{format}");
        }
    }

    /// The check at the end of each format damaged: every byte of the data was decoded before
    /// it, and is read before the error. The crates' readers lost the last read's bytes (xz:
    /// 160 of 500 records, zstd and bzip2 alike).
    #[test]
    fn the_bytes_decoded_before_damage_are_read_before_the_error() {
        let text = text();
        for (format, from_end) in [("gzip", 8), ("zstd", 2), ("xz", 6), ("bzip2", 3)] {
            let mut bytes = compressed(format, &text);
            let at = bytes.len() - from_end;
            bytes[at] ^= 0x55;
            for size in [7, 1 << 17, 1 << 20] {
                let (out, error) = read_all(decoder(format, bytes.clone()), size);
                assert!(error.is_some(), "{format} {size}: no error");
                assert!(out == text, "{format} {size}: {} bytes", out.len());
            }
        }
        // cut short: what came is the text's start, then an error that says the stream ended
        for format in FORMATS {
            let bytes = compressed(format, &text);
            let (out, error) = read_all(
                decoder(format, bytes[..bytes.len() * 2 / 3].to_vec()),
                1 << 17,
            );
            assert_eq!(
                error.unwrap().kind(),
                io::ErrorKind::UnexpectedEof,
                "{format}"
            );
            assert!(text.starts_with(&out), "{format}");
        }
    }

    /// A gzip header with every optional field (RFC 1952), its header checksum right or wrong.
    #[test]
    fn gzip_headers_with_optional_fields_are_read_and_their_checksum_checked() {
        let text = text();
        let plain = compressed("gzip", &text);
        let mut header = vec![0x1f, 0x8b, 8, 0x04 | 0x08 | 0x10 | 0x02, 0, 0, 0, 0, 0, 3];
        header.extend_from_slice(&[3, 0, b'a', b'b', b'c']); // extra field
        header.extend_from_slice(b"name.txt\0comment\0");
        let crc = crc32fast::hash(&header);
        let mut member = header.clone();
        member.extend_from_slice(&(crc as u16).to_le_bytes());
        member.extend_from_slice(&plain[10..]); // flate2 writes a plain ten-byte header
        let (out, error) = read_all(decoder("gzip", member.clone()), 4096);
        assert!(error.is_none(), "{error:?}");
        assert!(out == text);
        member[header.len()] ^= 1;
        let (out, error) = read_all(decoder("gzip", member), 4096);
        assert!(out.is_empty());
        assert!(error.unwrap().to_string().contains("header's checksum"));
        // a member, then bytes that are no member: its data, then the error
        let garbage = [plain.clone(), b"not gzip at all".to_vec()].concat();
        let (out, error) = read_all(decoder("gzip", garbage), 1 << 17);
        assert!(out == text);
        assert_eq!(error.unwrap().to_string(), "invalid gzip header");
        // padding after the last member
        let padded = [plain.clone(), vec![0; 512]].concat();
        let (out, error) = read_all(decoder("gzip", padded), 1 << 17);
        assert!(out == text);
        assert!(
            error
                .unwrap()
                .to_string()
                .starts_with("zero bytes after the last member")
        );
        // a flag that RFC 1952 reserves
        let mut reserved = plain;
        reserved[3] |= 0x20;
        let (_, error) = read_all(decoder("gzip", reserved), 4096);
        assert_eq!(error.unwrap().to_string(), "invalid gzip header");
    }

    /// A frame with a window past what the decoder takes by default says how to read it.
    #[test]
    fn a_zstd_frame_made_with_a_long_window_says_how_to_read_it() {
        let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        e.window_log(30).unwrap();
        e.write_all(&text()).unwrap();
        let (out, error) = read_all(decoder("zstd", e.finish().unwrap()), 4096);
        assert!(out.is_empty());
        let message = error.unwrap().to_string();
        assert!(message.contains("zstd -d --long=31"), "{message}");
    }

    /// A frame without a checksum ends with its last block: a read that ends with it, the
    /// buffer full, is not taken for a frame left open.
    #[test]
    fn a_zstd_frame_without_checksum_ending_with_a_read_is_whole() {
        let text = text();
        let frame = zstd::stream::encode_all(&text[..], 3).unwrap();
        for size in [1, 7, text.len(), text.len() / 2, 1 << 17] {
            let (out, error) = read_all(decoder("zstd", frame.clone()), size);
            assert!(error.is_none(), "{size}: {error:?}");
            assert!(out == text, "{size}");
        }
    }

    /// pzstd's skippable frames between frames are passed over.
    #[test]
    fn zstd_skippable_frames_are_passed_over() {
        let text = text();
        let frame = compressed("zstd", &text);
        let mut skippable = vec![0x50, 0x2a, 0x4d, 0x18, 5, 0, 0, 0];
        skippable.extend_from_slice(b"12345");
        let bytes = [skippable.clone(), frame.clone(), skippable, frame].concat();
        for size in [3, 1 << 17] {
            let (out, error) = read_all(decoder("zstd", bytes.clone()), size);
            assert!(error.is_none(), "{error:?}");
            assert!(out == [text.clone(), text.clone()].concat());
        }
    }
}
