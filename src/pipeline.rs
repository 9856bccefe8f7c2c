//! The only place that knows rayon: records are read in batches on the calling thread, each batch is
//! solved on the pool with an indexed `par_iter` (which keeps its order), and a writer thread hands
//! the batches to the caller's sink strictly in input order.
//!
//! Memory stays bounded whatever the input size: at most `in_flight` batches exist at once (being
//! solved, or waiting in the reorder buffer), because the reader takes a token from a bounded channel
//! before reading each batch and the writer returns it after writing one. Reading, solving and
//! writing overlap. `-j1` goes through the same code, so output does not depend on the thread count.

use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use rayon::prelude::*;

use crate::input::{InputError, Reader, Record};

/// How the pipeline cuts and schedules work.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Records per batch.
    pub batch_size: usize,
    /// Batches read but not yet written, at most.
    pub in_flight: usize,
}

impl Config {
    /// Defaults for `threads` solver threads: batches of 2048 records, two in flight per thread plus
    /// two, so each thread has a batch to steal from while the writer drains another.
    pub fn for_threads(threads: usize) -> Config {
        Config {
            batch_size: 2048,
            in_flight: 2 * threads.max(1) + 2,
        }
    }
}

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError<E> {
    /// Reading failed (records read before the failure were still processed and written).
    #[error(transparent)]
    Input(InputError),
    /// The sink failed; the run stopped at once.
    #[error(transparent)]
    Sink(E),
}

type Done<T> = (u64, Vec<Record>, Vec<T>);

/// Reads every record from `reader`, maps each with `work` on `pool`, and calls `sink` with each
/// batch of records and their results, in input order, on a separate writer thread.
pub fn run<T, W, S, E>(
    reader: &mut Reader,
    pool: &rayon::ThreadPool,
    config: Config,
    work: W,
    sink: S,
) -> Result<(), PipelineError<E>>
where
    T: Send,
    W: Fn(&Record) -> T + Sync,
    S: FnMut(Vec<Record>, Vec<T>) -> Result<(), E> + Send,
    E: Send,
{
    let in_flight = config.in_flight.max(1);
    let (token_tx, token_rx) = sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        // cannot fail: the channel has room for every token and its receiver is alive
        let _ = token_tx.send(());
    }
    let (done_tx, done_rx) = sync_channel::<Done<T>>(in_flight);
    let work = &work;

    std::thread::scope(|scope| {
        let writer = scope.spawn(move || write_in_order(done_rx, token_tx, sink));
        let read_result = pool.in_place_scope(|jobs| -> Result<(), InputError> {
            let mut batch_no = 0u64;
            // a token per batch bounds the batches alive; no token means the writer has stopped
            while token_rx.recv().is_ok() {
                let mut records = Vec::with_capacity(config.batch_size);
                if reader.read_batch(config.batch_size, &mut records)? == 0 {
                    break;
                }
                let done_tx = done_tx.clone();
                let no = batch_no;
                batch_no += 1;
                jobs.spawn(move |_| {
                    let mut results = Vec::with_capacity(records.len());
                    records.par_iter().map(work).collect_into_vec(&mut results);
                    // the writer may have stopped on an error; then the batch is dropped
                    let _ = done_tx.send((no, records, results));
                });
            }
            Ok(())
        });
        drop(done_tx);
        let write_result = writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        write_result.map_err(PipelineError::Sink)?;
        read_result.map_err(PipelineError::Input)
    })
}

/// The writer thread: reorders finished batches by number and feeds the sink, returning a token per
/// batch written. Stops at the first sink error (dropping its channels unblocks the reader).
fn write_in_order<T, S, E>(
    done: Receiver<Done<T>>,
    tokens: SyncSender<()>,
    mut sink: S,
) -> Result<(), E>
where
    S: FnMut(Vec<Record>, Vec<T>) -> Result<(), E>,
{
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    for (no, records, results) in done {
        pending.insert(no, (records, results));
        while let Some((records, results)) = pending.remove(&next) {
            sink(records, results)?;
            next += 1;
            let _ = tokens.send(());
        }
    }
    Ok(())
}
