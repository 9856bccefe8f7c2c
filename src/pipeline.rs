//! The only place that knows rayon: batches are read on the calling thread, each is worked on
//! the pool, and a writer thread hands the batches to the caller's sink strictly in input order.
//!
//! A batch is whatever the caller makes of it ([`run_batches`]): `solve` reads raw bytes cut at
//! record boundaries into it, and the pool parses them, solves the puzzles and formats the output
//! bytes, so that the two serial stages only move bytes. [`run`] is the simple case: a batch of
//! items, each mapped to a result with an indexed `par_iter` (which keeps their order).
//!
//! Memory stays bounded whatever the input size: at most `in_flight` batches exist at once (being
//! read, worked, or waiting in the reorder buffer), because the reader takes a batch from a
//! bounded channel before reading into it and the writer sends each batch back there once
//! written. The batches are recycled, buffers and all, so a reader that overwrites what it is
//! handed allocates nothing per item in a steady run. Reading, working and writing overlap.
//! `-j1` goes through the same code, so output does not depend on the thread count.
//!
//! [`Workers`] is the in-memory counterpart for benchmarks: a slice mapped on N threads, in order.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use rayon::prelude::*;

/// How the pipeline cuts and schedules work.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Records per batch.
    pub batch_size: usize,
    /// Batches read but not yet written, at most.
    pub in_flight: usize,
}

/// Records per batch by default: large enough that per-batch costs (a channel message, a rayon
/// split, a progress update) vanish, small enough that a batch of hard puzzles takes milliseconds.
pub const DEFAULT_BATCH_SIZE: NonZeroUsize = NonZeroUsize::new(2048).expect("2048 is not zero");

/// Logical CPUs this process may use (1 when that cannot be told).
pub fn logical_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// The most threads a run (or a Python call) starts: 4 per logical CPU, and at least 64. More
/// only add overhead, and far more cost a great deal: pool start-up grows with the square of the
/// thread count (measured: 300 puzzles in 0.01 s with 64 threads, 0.05 s with 256, 1.45 s with
/// 1024, over 7 minutes with 100,000), and each thread keeps two batches in flight.
pub fn thread_ceiling() -> usize {
    (4 * logical_cpus()).max(64)
}

/// What `RAYON_NUM_THREADS` asks for, as rayon reads it: `Ok(Some(n))` for a positive number,
/// `Ok(None)` when it is unset, empty or 0 (the default: every logical CPU), and `Err(text)`
/// for anything else (`abc`, `-1`), which the CLI and the Python package say, then take as the
/// default.
pub fn rayon_num_threads() -> Result<Option<NonZeroUsize>, String> {
    let Some(set) = std::env::var_os("RAYON_NUM_THREADS") else {
        return Ok(None);
    };
    let text = set.to_string_lossy();
    match text.trim().parse::<usize>() {
        Ok(n) => Ok(NonZeroUsize::new(n)),
        Err(_) if text.trim().is_empty() => Ok(None),
        Err(_) => Err(text.into_owned()),
    }
}

impl Config {
    /// Defaults for `threads` solver threads: [`DEFAULT_BATCH_SIZE`], two batches in flight per
    /// thread plus two, so each thread has a batch to steal from while the writer drains another.
    pub fn for_threads(threads: usize) -> Config {
        Config {
            batch_size: DEFAULT_BATCH_SIZE.get(),
            in_flight: 2 * threads.max(1) + 2,
        }
    }
}

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError<R, W> {
    /// Reading failed (batches read before the failure were still worked and written).
    #[error(transparent)]
    Read(R),
    /// The sink failed; the run stopped at once.
    #[error(transparent)]
    Write(W),
}

/// The steps of [`run_batches`] besides reading and writing.
pub struct Steps<A, P, W> {
    /// What the reading thread does of `prepare` when it takes it on (all of it, or nothing
    /// for a batch it must hand on at once).
    pub ahead: A,
    /// The first step of a batch's work (parsing), which the reading thread may take on: it must
    /// do nothing when run again on a batch it has been run on.
    pub prepare: P,
    /// The rest of a batch's work, on the pool; may use rayon's parallel iterators inside.
    pub work: W,
}

/// Reads batches with `read`, works each on `pool` (`steps.prepare`, then `steps.work`), and
/// calls `sink` with each batch, in input order, on a separate writer thread. Called from
/// outside the pool: its jobs then start in the order they were read, which chunks of a file
/// rely on (see `input::chunks`).
///
/// `read` is handed a recycled batch (a fresh `B::default()` at first, later one already
/// written) to fill; it returns false at the end, when the batch it was handed is not used.
///
/// The reading thread takes a batch's `prepare` on itself (`ahead`) when the pool has at least as many
/// batches waiting as it has threads: then the pool is the bottleneck and the reading thread
/// would only wait. With one thread (`-j1`) that keeps parsing beside solving, as it was before
/// batches were parsed on the pool; with many, the reading thread seldom finds a backlog and
/// only moves bytes (or, for a file read in chunks, hands out where they are).
///
/// In the same way, a batch whose work starts with a batch waiting for every thread is not split
/// among them by [`map_into`] (the other threads take the waiting batches): on easy puzzles,
/// splitting every batch cost some 8% of a run's time in joins, steals and wake-ups. A batch that
/// starts with fewer waiting (a small input, the end of a large one) is split as before.
pub fn run_batches<B, R, A, P, W, S, RE, WE>(
    read: R,
    pool: &rayon::ThreadPool,
    in_flight: usize,
    steps: Steps<A, P, W>,
    mut sink: S,
) -> Result<(), PipelineError<RE, WE>>
where
    B: Default + Send,
    R: FnMut(&mut B) -> Result<bool, RE>,
    A: Fn(&mut B),
    P: Fn(&mut B) + Sync,
    W: Fn(&mut B) + Sync,
    S: FnMut(&B) -> Result<(), WE> + Send,
    WE: Send,
{
    run_batches_placed(
        read,
        pool,
        in_flight,
        steps,
        |batch: &mut B| sink(batch),
        None,
    )
}

/// A batch's last step, on the pool, once the sink has had it in order: writing its bytes at the
/// offset the sink gave them ([`crate::output::Placed`]).
pub type Place<'a, B, E> = &'a (dyn Fn(&B) -> Result<(), E> + Sync);

/// [`run_batches`], with a last step for each batch: once `sink` has had it, in input order
/// (and may have changed it, to note where its bytes go), `place` is run on it on the pool, so
/// that what the sink would have done alone in order (copying the output into a file) is done
/// by every thread. A failed `place` stops the run as a failed sink does; when this returns, no
/// `place` is under way.
pub fn run_batches_placed<B, R, A, P, W, S, RE, WE>(
    mut read: R,
    pool: &rayon::ThreadPool,
    in_flight: usize,
    steps: Steps<A, P, W>,
    sink: S,
    place: Option<Place<'_, B, WE>>,
) -> Result<(), PipelineError<RE, WE>>
where
    B: Default + Send,
    R: FnMut(&mut B) -> Result<bool, RE>,
    A: Fn(&mut B),
    P: Fn(&mut B) + Sync,
    W: Fn(&mut B) + Sync,
    S: FnMut(&mut B) -> Result<(), WE> + Send,
    WE: Send,
{
    debug_assert!(
        pool.current_thread_index().is_none(),
        "run_batches is called from outside its pool"
    );
    let in_flight = in_flight.max(1);
    let threads = pool.current_num_threads();
    // batches handed to the pool whose job has not started
    let waiting = &AtomicUsize::new(0);
    // the first error of a `place`
    let failed = &Mutex::new(None);
    let Steps {
        ahead,
        prepare,
        work,
    } = &steps;
    let (free_tx, free_rx) = sync_channel::<B>(in_flight);
    for _ in 0..in_flight {
        // cannot fail: the channel has room for every batch and its receiver is alive
        let _ = free_tx.send(B::default());
    }
    let (done_tx, done_rx) = sync_channel::<(u64, B)>(in_flight);

    // the writer thread lives inside the pool's scope, so that it can hand `place` jobs to it;
    // the scope ends once every job, those included, has
    let (read_result, write_result) = pool.in_place_scope(|jobs| {
        std::thread::scope(|threads_scope| {
            let placing = place.map(|place| Placing {
                place,
                jobs,
                failed,
            });
            let writer =
                threads_scope.spawn(move || write_in_order(done_rx, free_tx, sink, placing));
            let read_result = (|| -> Result<(), RE> {
                let mut batch_no = 0u64;
                // the free batches bound the batches alive; none coming means the writer has
                // stopped
                while let Ok(mut batch) = free_rx.recv() {
                    if !read(&mut batch)? {
                        break;
                    }
                    if waiting.load(Ordering::Relaxed) >= threads {
                        ahead(&mut batch);
                    }
                    let done_tx = done_tx.clone();
                    let no = batch_no;
                    batch_no += 1;
                    waiting.fetch_add(1, Ordering::Relaxed);
                    jobs.spawn(move |_| {
                        waiting.fetch_sub(1, Ordering::Relaxed);
                        prepare(&mut batch);
                        // with a batch waiting for every thread, splitting this one among them
                        // would only trade batches for pieces (at some 8% of an easy run's time)
                        let split = SPLIT.replace(waiting.load(Ordering::Relaxed) < threads);
                        work(&mut batch);
                        SPLIT.set(split);
                        // the writer may have stopped on an error; then the batch is dropped
                        let _ = done_tx.send((no, batch));
                    });
                }
                Ok(())
            })();
            drop(done_tx);
            let write_result = writer
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (read_result, write_result)
        })
    });
    write_result.map_err(PipelineError::Write)?;
    // a `place` that failed after the writer's last look
    if let Some(err) = failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(PipelineError::Write(err));
    }
    read_result.map_err(PipelineError::Read)
}

/// What the writer thread needs to hand batches to `place` on the pool.
struct Placing<'p, 's, 'scope, B, E> {
    place: Place<'p, B, E>,
    jobs: &'s rayon::Scope<'scope>,
    failed: &'p Mutex<Option<E>>,
}

/// The writer thread: reorders finished batches by number and feeds the sink, then sends each
/// batch back to the reader, or with `placing` hands it to `place` on the pool, which sends it
/// back. Stops at the first sink or `place` error (dropping its channels unblocks the reader).
fn write_in_order<'p: 'scope, 'scope, B, S, E>(
    done: Receiver<(u64, B)>,
    free: SyncSender<B>,
    mut sink: S,
    placing: Option<Placing<'p, '_, 'scope, B, E>>,
) -> Result<(), E>
where
    B: Send + 'scope,
    E: Send,
    S: FnMut(&mut B) -> Result<(), E>,
{
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    for (no, batch) in done {
        pending.insert(no, batch);
        while let Some(mut batch) = pending.remove(&next) {
            if let Some(p) = &placing {
                if let Some(err) = p.failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
                    return Err(err);
                }
            }
            sink(&mut batch)?;
            next += 1;
            match &placing {
                // the reader may have stopped; then the batch is dropped
                None => {
                    let _ = free.send(batch);
                }
                Some(p) => {
                    let (place, failed, free) = (p.place, p.failed, free.clone());
                    p.jobs.spawn(move |_| {
                        if let Err(err) = place(&batch) {
                            let mut first = failed.lock().unwrap_or_else(|e| e.into_inner());
                            first.get_or_insert(err);
                        }
                        let _ = free.send(batch);
                    });
                }
            }
        }
    }
    Ok(())
}

thread_local! {
    /// Whether [`map_into`] on this thread splits its items among the pool's threads: not
    /// while it works a batch of [`run_batches`] that started with a batch waiting for every
    /// thread, since then the other threads have whole batches to work.
    static SPLIT: Cell<bool> = const { Cell::new(true) };
}

/// Whether [`map_into`] splits its items on this thread now.
fn splits() -> bool {
    SPLIT.get()
}

/// Maps `items` with `work`, on the pool the caller runs on (inside a batch's work in
/// [`run_batches`], the run's pool), into `out`, in the items' order: in parallel, unless this
/// is a batch's work and the other threads have batches of their own to work (see
/// [`run_batches`]).
pub fn map_into<I, T>(items: &[I], out: &mut Vec<T>, work: impl Fn(&I) -> T + Sync + Send)
where
    I: Sync,
    T: Send,
{
    map_indexed_into(items.len(), out, |i| work(&items[i]));
}

/// Maps the indices `0..n` with `work`, as [`map_into`] maps items, into `out`.
pub fn map_indexed_into<T>(n: usize, out: &mut Vec<T>, work: impl Fn(usize) -> T + Sync + Send)
where
    T: Send,
{
    if splits() {
        (0..n).into_par_iter().map(work).collect_into_vec(out);
    } else {
        out.clear();
        out.extend((0..n).map(work));
    }
}

/// [`map_indexed_into`] that stops early: an index not yet begun once `stop` is up (a signal)
/// is not worked, and `out` gets the results of the indices before the first one so left, a
/// prefix in order (all of them when `stop` stays down).
///
/// For work that is slow a record (a rating can take a second): a batch in flight then ends
/// within the records under way, not after all of them. The indices are worked one after
/// another on the calling thread, never split among the pool's: a thread waiting for the
/// pieces of its batch takes other batches' work meanwhile (rayon's join), and must finish
/// it before its own batch can end, so the first batch of `rate hard.txt | head` waited for
/// every batch in flight (a minute, nothing written). Batches this slow are made small
/// instead, so that every thread has one.
pub fn map_indexed_prefix_into<T>(
    n: usize,
    out: &mut Vec<T>,
    stop: &AtomicBool,
    work: impl Fn(usize) -> T,
) {
    out.clear();
    out.extend((0..n).map_while(|i| (!stop.load(Ordering::Relaxed)).then(|| work(i))));
}

/// A batch of items and their results, for [`run`].
struct Mapped<I, T> {
    items: Vec<I>,
    results: Vec<T>,
}

impl<I, T> Default for Mapped<I, T> {
    fn default() -> Self {
        Mapped {
            items: Vec::new(),
            results: Vec::new(),
        }
    }
}

/// Pulls batches of items from `read`, maps each item with `work` on `pool`, and calls `sink`
/// with each batch of items and their results, in input order, on a separate writer thread.
///
/// `read` is handed a recycled batch (empty at first, later holding the items of a batch already
/// written) and the most items to read; it must leave in it just the items it read (reusing the
/// old ones as it likes) and return how many, 0 at the end.
pub fn run<I, T, R, S, RE, WE>(
    mut read: R,
    pool: &rayon::ThreadPool,
    config: Config,
    work: impl Fn(&I) -> T + Sync,
    mut sink: S,
) -> Result<(), PipelineError<RE, WE>>
where
    I: Send + Sync,
    T: Send,
    R: FnMut(usize, &mut Vec<I>) -> Result<usize, RE>,
    S: FnMut(&[I], &[T]) -> Result<(), WE> + Send,
    WE: Send,
{
    run_batches(
        |batch: &mut Mapped<I, T>| Ok(read(config.batch_size, &mut batch.items)? > 0),
        pool,
        config.in_flight,
        Steps {
            ahead: |_: &mut Mapped<I, T>| {},
            prepare: |_: &mut Mapped<I, T>| {},
            work: |batch: &mut Mapped<I, T>| map_into(&batch.items, &mut batch.results, &work),
        },
        |batch: &Mapped<I, T>| sink(&batch.items, &batch.results),
    )
}

/// Maps slices of items on a fixed number of threads, for in-memory work such as benchmarks: one
/// thread works on the calling thread with a plain loop (no pool in the way of what is measured),
/// more use a rayon pool and keep the items' order.
pub struct Workers {
    pool: Option<rayon::ThreadPool>,
}

impl Workers {
    /// Workers on `threads` threads (the calling thread alone for 1).
    pub fn new(threads: NonZeroUsize) -> Result<Workers, rayon::ThreadPoolBuildError> {
        let pool = match threads.get() {
            1 => None,
            n => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .thread_name(|i| format!("bench-{i}"))
                    .build()?,
            ),
        };
        Ok(Workers { pool })
    }

    /// Threads in use.
    pub fn threads(&self) -> usize {
        self.pool
            .as_ref()
            .map_or(1, rayon::ThreadPool::current_num_threads)
    }

    /// `work` applied to every item; results in the items' order.
    pub fn map<I, T>(&self, items: &[I], work: impl Fn(&I) -> T + Sync) -> Vec<T>
    where
        I: Sync,
        T: Send,
    {
        match &self.pool {
            None => items.iter().map(work).collect(),
            Some(pool) => {
                let mut out = Vec::with_capacity(items.len());
                let work = &work;
                pool.install(|| items.par_iter().map(work).collect_into_vec(&mut out));
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    fn config(batch_size: usize, in_flight: usize) -> Config {
        Config {
            batch_size,
            in_flight,
        }
    }

    /// A source of `n` numbers, `max` at a time.
    fn numbers(n: u64) -> impl FnMut(usize, &mut Vec<u64>) -> Result<usize, String> {
        let mut next = 0;
        move |max, out| {
            let end = (next + max as u64).min(n);
            out.clear();
            out.extend(next..end);
            let got = (end - next) as usize;
            next = end;
            Ok(got)
        }
    }

    /// Work whose cost varies a lot from item to item, so batches finish out of order.
    fn uneven(x: &u64) -> u64 {
        let spins = (x * 7919) % 5000;
        (0..spins).fold(*x, |a, i| a.wrapping_mul(31).wrapping_add(i)) ^ x << 32
    }

    #[test]
    fn keeps_input_order_with_several_threads_and_tiny_batches() {
        for threads in [1, 2, 4] {
            let mut seen = Vec::new();
            let config = config(3, 5);
            run(
                numbers(2000),
                &pool(threads),
                config,
                uneven,
                |items: &[u64], results: &[u64]| {
                    assert_eq!(items.len(), results.len());
                    for (i, r) in items.iter().zip(results) {
                        assert_eq!(*r, uneven(i));
                    }
                    seen.extend_from_slice(items);
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
            assert_eq!(seen, (0..2000).collect::<Vec<_>>(), "threads {threads}");
        }
    }

    #[test]
    fn a_batch_is_split_among_threads_only_when_they_have_no_batch_waiting() {
        /// A batch: its number, and whether its work would split it.
        #[derive(Default)]
        struct Batch {
            no: usize,
            split: Option<bool>,
        }
        let read_count = AtomicUsize::new(0);
        let mut seen = Vec::new();
        let pool = pool(2);
        let both_started = std::sync::Barrier::new(2);
        run_batches(
            |batch: &mut Batch| {
                let no = read_count.load(Ordering::SeqCst);
                batch.no = no;
                read_count.store(no + 1, Ordering::SeqCst);
                Ok::<bool, ()>(no < 5)
            },
            &pool,
            6,
            Steps {
                // the first two batches keep both threads busy until all five are read, and
                // neither thread takes another before both have started their work: they start
                // with at least two waiting; the last starts with none
                ahead: |_: &mut Batch| {},
                prepare: |batch: &mut Batch| {
                    while batch.no < 2 && read_count.load(Ordering::SeqCst) < 5 {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                },
                work: |batch: &mut Batch| {
                    batch.split = Some(splits());
                    if batch.no < 2 {
                        both_started.wait();
                    }
                },
            },
            |batch: &Batch| {
                seen.push((batch.no, batch.split));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(seen.len(), 5);
        assert_eq!(&seen[..2], [(0, Some(false)), (1, Some(false))]);
        assert_eq!(seen[4], (4, Some(true)));
        // outside a batch's work, map_into splits as before: the threads' flags were put back
        assert!(splits());
        assert_eq!(pool.broadcast(|_| splits()), [true, true]);
    }

    #[test]
    fn empty_input_calls_no_sink() {
        let mut calls = 0;
        run(
            numbers(0),
            &pool(2),
            Config::for_threads(2),
            uneven,
            |_, _| {
                calls += 1;
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(calls, 0);
    }

    #[test]
    fn sink_error_stops_the_run_without_hanging() {
        let mut written = 0;
        let result = run(
            numbers(1_000_000),
            &pool(2),
            config(10, 3),
            uneven,
            |items: &[u64], _: &[u64]| {
                written += items.len();
                if written >= 50 {
                    Err("disk full")
                } else {
                    Ok(())
                }
            },
        );
        assert!(matches!(result, Err(PipelineError::Write("disk full"))));
        assert_eq!(written, 50);
    }

    #[test]
    fn read_error_after_some_batches_still_writes_them() {
        let mut source = numbers(100);
        let mut calls = 0;
        let failing = move |max: usize, out: &mut Vec<u64>| {
            calls += 1;
            if calls > 4 {
                Err("bad sector".to_string())
            } else {
                source(max, out)
            }
        };
        let mut seen = Vec::new();
        let result = run(
            failing,
            &pool(2),
            config(10, 2),
            uneven,
            |items: &[u64], _: &[u64]| {
                seen.extend_from_slice(items);
                Ok::<(), ()>(())
            },
        );
        assert!(matches!(result, Err(PipelineError::Read(ref e)) if e == "bad sector"));
        assert_eq!(seen, (0..40).collect::<Vec<_>>());
    }

    #[test]
    fn hands_written_batches_back_to_the_reader() {
        let mut source = numbers(1000);
        let mut recycled = 0;
        let read = |max: usize, out: &mut Vec<u64>| {
            // a batch handed back still holds the items written from it
            if !out.is_empty() {
                recycled += 1;
            }
            source(max, out)
        };
        let mut seen = Vec::new();
        run(
            read,
            &pool(2),
            config(10, 3),
            uneven,
            |items: &[u64], _: &[u64]| {
                seen.extend_from_slice(items);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(seen, (0..1000).collect::<Vec<_>>());
        // 100 batches and a last empty read, the first 3 into new batches
        assert_eq!(recycled, 101 - 3);
    }

    /// A batch of `run_batches_placed` tests: its number, and where the sink placed it.
    #[derive(Default)]
    struct Numbered {
        no: u64,
        at: Option<u64>,
    }

    #[test]
    fn every_batch_is_placed_after_the_sink_had_it_in_order() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let mut next = 0u64;
        let mut sunk = Vec::new();
        let placed = Mutex::new(Vec::new());
        let place = |batch: &Numbered| -> Result<(), ()> {
            placed.lock().unwrap().push((batch.no, batch.at));
            Ok(())
        };
        run_batches_placed(
            |batch: &mut Numbered| -> Result<bool, ()> {
                batch.no = next;
                batch.at = None;
                next += 1;
                Ok(batch.no < 500)
            },
            &pool,
            4,
            Steps {
                ahead: |_: &mut Numbered| {},
                prepare: |_: &mut Numbered| {},
                work: |_: &mut Numbered| {},
            },
            |batch: &mut Numbered| {
                sunk.push(batch.no);
                batch.at = Some(batch.no * 10);
                Ok(())
            },
            Some(&place),
        )
        .unwrap();
        assert_eq!(sunk, (0..500).collect::<Vec<_>>());
        let mut placed = placed.into_inner().unwrap();
        placed.sort();
        let want: Vec<(u64, Option<u64>)> = (0..500).map(|n| (n, Some(n * 10))).collect();
        assert_eq!(placed, want, "each placed once, after its sink call");
    }

    #[test]
    fn a_failed_place_stops_the_run_as_a_failed_sink_does() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut next = 0u64;
        let place = |batch: &Numbered| if batch.no == 20 { Err("full") } else { Ok(()) };
        let result = run_batches_placed(
            |batch: &mut Numbered| -> Result<bool, ()> {
                batch.no = next;
                next += 1;
                // an endless input: only the failure can stop it
                Ok(true)
            },
            &pool,
            4,
            Steps {
                ahead: |_: &mut Numbered| {},
                prepare: |_: &mut Numbered| {},
                work: |_: &mut Numbered| {},
            },
            |_: &mut Numbered| Ok(()),
            Some(&place),
        );
        assert!(matches!(result, Err(PipelineError::Write("full"))));
    }

    #[test]
    fn bounds_the_batches_alive() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let alive = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let mut source = numbers(10_000);
        let read = |max: usize, out: &mut Vec<u64>| {
            let n = source(max, out).map_err(|_| ())?;
            if n > 0 {
                let now = alive.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
            }
            Ok::<usize, ()>(n)
        };
        run(read, &pool(2), config(16, 3), uneven, |_, _| {
            alive.fetch_sub(1, Ordering::SeqCst);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert!(
            peak.load(Ordering::SeqCst) <= 3,
            "peak {}",
            peak.load(Ordering::SeqCst)
        );
    }

    #[test]
    fn workers_map_in_order_on_one_or_more_threads() {
        let items: Vec<u64> = (0..5000).collect();
        let want: Vec<u64> = items.iter().map(uneven).collect();
        for n in [1, 2, 3] {
            let workers = Workers::new(NonZeroUsize::new(n).unwrap()).unwrap();
            assert_eq!(workers.threads(), n);
            assert_eq!(workers.map(&items, uneven), want, "threads {n}");
        }
    }
}
