//! Every option of fio 3.33 (from its HOWTO and `fio --cmdhelp=all`, engine options included),
//! with the data placement options of fio 3.34 to 3.38 and the zone options of later versions
//! (fio's `options.c`), and what the simulator does with it: honours it, ignores it because it
//! does not change the workload the drive sees, or cannot honour it. An option not listed is not
//! a fio option.

/// What the import does with an option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Read by the import (which may still report a value it cannot honour).
    Honoured,
    /// Does not change the commands the drive sees; the reason says why.
    Ignored(&'static str),
    /// Would change the workload, but the simulator cannot do it; the reason says what is missing.
    Unsupported(&'static str),
}

const FILES: &str = "files and devices: the simulator runs on the drive's tested span";
const SUBMIT: &str = "how fio submits and reaps I/O: the simulator keeps iodepth commands outstanding itself";
const DIRECT: &str = "every command goes to the drive, as with direct=1 (the simulator has no page cache)";
const WORKER: &str = "how fio runs its workers (processes, CPUs, priorities, memory)";
const ENGINE: &str = "an I/O engine's own option";
const REPORT: &str = "reporting: results follow fio's JSON layout whatever it says";
const ERRORS: &str = "error handling: the simulated drive returns no errors";
const DATA: &str = "data content: the model stores no data (buffer_compress_percentage sets compressibility)";
const RANDOM: &str = "the random generator: the run's seed drives every draw";
const VERIFY: &str = "data verification (writing patterns and reading them back) is not modelled";
const FLUSH: &str = "flush and sync commands are not modelled";
const IOLOG: &str = "I/O logs and replays: replay a trace with `ssdlab replay` instead";
const HIST: &str = "histogram logs are not written (the JSON output has clat percentiles)";
const LOGFMT: &str = "the logs are plain text with times in ms from the job's start";
const LATENCY: &str = "latency targets that adjust or stop the job are not modelled";
const START: &str = "jobs of a phase start together and stop at the phase's end";

/// Every option and its aliases, canonical names first.
pub const OPTIONS: &[(&str, Class)] = &[
    // Honoured: the workload, its pace, its length and what is written about it.
    ("rw", Class::Honoured),
    ("readwrite", Class::Honoured),
    ("rwmixread", Class::Honoured),
    ("rwmixwrite", Class::Honoured),
    ("bs", Class::Honoured),
    ("blocksize", Class::Honoured),
    ("bssplit", Class::Honoured),
    ("ba", Class::Honoured),
    ("blockalign", Class::Honoured),
    ("iodepth", Class::Honoured),
    ("ioengine", Class::Honoured),
    ("numjobs", Class::Honoured),
    ("size", Class::Honoured),
    ("filesize", Class::Honoured),
    ("io_size", Class::Honoured),
    ("io_limit", Class::Honoured),
    ("loops", Class::Honoured),
    ("offset", Class::Honoured),
    ("fileoffset", Class::Honoured),
    ("offset_increment", Class::Honoured),
    ("offset_align", Class::Honoured),
    ("runtime", Class::Honoured),
    ("timeout", Class::Honoured),
    ("time_based", Class::Honoured),
    ("ramp_time", Class::Honoured),
    ("stonewall", Class::Honoured),
    ("wait_for_previous", Class::Honoured),
    ("new_group", Class::Honoured),
    ("group_reporting", Class::Honoured),
    ("name", Class::Honoured),
    ("norandommap", Class::Honoured),
    ("percentage_random", Class::Honoured),
    ("random_distribution", Class::Honoured),
    ("rate", Class::Honoured),
    ("rate_iops", Class::Honoured),
    ("rate_process", Class::Honoured),
    ("thinktime", Class::Honoured),
    ("thinktime_blocks", Class::Honoured),
    ("thinktime_blocks_type", Class::Honoured),
    ("thinktime_spin", Class::Honoured),
    ("kb_base", Class::Honoured),
    ("buffer_compress_percentage", Class::Honoured),
    ("write_iops_log", Class::Honoured),
    ("write_bw_log", Class::Honoured),
    ("write_lat_log", Class::Honoured),
    ("log_avg_msec", Class::Honoured),
    ("log_max_value", Class::Honoured),
    ("log_offset", Class::Honoured),
    ("per_job_logs", Class::Honoured),
    ("bwavgtime", Class::Honoured),
    ("iopsavgtime", Class::Honoured),
    ("percentile_list", Class::Honoured),
    ("steadystate", Class::Honoured),
    ("ss", Class::Honoured),
    ("steadystate_duration", Class::Honoured),
    ("ss_dur", Class::Honoured),
    ("steadystate_ramp_time", Class::Honoured),
    ("ss_ramp", Class::Honoured),
    // Zones (fio's zbd.c: `host/fio/zones.rs`) and data placement (`host/fio/fdp.rs`).
    ("zonemode", Class::Honoured),
    ("zonesize", Class::Honoured),
    ("zonecapacity", Class::Honoured),
    ("zonerange", Class::Honoured),
    ("zoneskip", Class::Honoured),
    ("read_beyond_wp", Class::Honoured),
    ("max_open_zones", Class::Honoured),
    ("job_max_open_zones", Class::Honoured),
    ("ignore_zone_limits", Class::Honoured),
    ("zone_reset_threshold", Class::Honoured),
    ("zone_reset_frequency", Class::Honoured),
    ("fdp", Class::Honoured),
    ("dataplacement", Class::Honoured),
    ("data_placement", Class::Honoured),
    ("plid_select", Class::Honoured),
    ("fdp_pli_select", Class::Honoured),
    ("plids", Class::Honoured),
    ("fdp_pli", Class::Honoured),
    // Ignored: they do not change the commands the drive sees.
    ("description", Class::Ignored("a description, shown nowhere")),
    ("filename", Class::Ignored(FILES)),
    ("directory", Class::Ignored(FILES)),
    ("filename_format", Class::Ignored(FILES)),
    ("unique_filename", Class::Ignored(FILES)),
    ("opendir", Class::Ignored(FILES)),
    ("lockfile", Class::Ignored(FILES)),
    ("nrfiles", Class::Ignored(FILES)),
    ("nr_files", Class::Ignored(FILES)),
    ("file_service_type", Class::Ignored(FILES)),
    ("openfiles", Class::Ignored(FILES)),
    ("allow_file_create", Class::Ignored(FILES)),
    ("allow_mounted_write", Class::Ignored(FILES)),
    ("create_serialize", Class::Ignored(FILES)),
    ("create_fsync", Class::Ignored(FILES)),
    ("create_on_open", Class::Ignored(FILES)),
    ("create_only", Class::Honoured),
    ("unlink", Class::Ignored(FILES)),
    ("unlink_each_loop", Class::Ignored(FILES)),
    ("fallocate", Class::Ignored(FILES)),
    ("fadvise_hint", Class::Ignored(FILES)),
    ("pre_read", Class::Ignored(FILES)),
    ("invalidate", Class::Ignored(FILES)),
    ("overwrite", Class::Ignored(FILES)),
    ("file_append", Class::Ignored(FILES)),
    ("ioscheduler", Class::Ignored(FILES)),
    ("direct", Class::Ignored(DIRECT)),
    ("buffered", Class::Ignored(DIRECT)),
    ("atomic", Class::Ignored(DIRECT)),
    ("iodepth_batch_submit", Class::Ignored(SUBMIT)),
    ("iodepth_batch", Class::Ignored(SUBMIT)),
    ("iodepth_batch_complete_min", Class::Ignored(SUBMIT)),
    ("iodepth_batch_complete", Class::Ignored(SUBMIT)),
    ("iodepth_batch_complete_max", Class::Ignored(SUBMIT)),
    ("iodepth_low", Class::Ignored(SUBMIT)),
    ("io_submit_mode", Class::Ignored(SUBMIT)),
    ("serialize_overlap", Class::Ignored(SUBMIT)),
    ("rate_cycle", Class::Ignored(SUBMIT)),
    ("ratecycle", Class::Ignored(SUBMIT)),
    ("thread", Class::Ignored(WORKER)),
    ("nice", Class::Ignored(WORKER)),
    ("prio", Class::Ignored(WORKER)),
    ("prioclass", Class::Ignored(WORKER)),
    ("cpumask", Class::Ignored(WORKER)),
    ("cpus_allowed", Class::Ignored(WORKER)),
    ("cpus_allowed_policy", Class::Ignored(WORKER)),
    ("numa_cpu_nodes", Class::Ignored(WORKER)),
    ("numa_mem_policy", Class::Ignored(WORKER)),
    ("cgroup", Class::Ignored(WORKER)),
    ("cgroup_nodelete", Class::Ignored(WORKER)),
    ("cgroup_weight", Class::Ignored(WORKER)),
    ("uid", Class::Ignored(WORKER)),
    ("gid", Class::Ignored(WORKER)),
    ("mem", Class::Ignored(WORKER)),
    ("iomem", Class::Ignored(WORKER)),
    ("iomem_align", Class::Ignored(WORKER)),
    ("mem_align", Class::Ignored(WORKER)),
    ("hugepage-size", Class::Ignored(WORKER)),
    ("gpu_dev_id", Class::Ignored(WORKER)),
    ("lockmem", Class::Ignored(WORKER)),
    ("clocksource", Class::Ignored(WORKER)),
    ("gtod_reduce", Class::Ignored(WORKER)),
    ("gtod_cpu", Class::Ignored(WORKER)),
    ("exec_prerun", Class::Ignored("runs a program on the host before the job: not run")),
    ("exec_postrun", Class::Ignored("runs a program on the host after the job: not run")),
    ("stats", Class::Ignored(REPORT)),
    ("clat_percentiles", Class::Ignored(REPORT)),
    ("lat_percentiles", Class::Ignored(REPORT)),
    ("slat_percentiles", Class::Ignored(REPORT)),
    ("significant_figures", Class::Ignored(REPORT)),
    ("disk_util", Class::Ignored(REPORT)),
    ("disable_lat", Class::Ignored(REPORT)),
    ("disable_clat", Class::Ignored(REPORT)),
    ("disable_slat", Class::Ignored(REPORT)),
    ("disable_bw_measurement", Class::Ignored(REPORT)),
    ("disable_bw", Class::Ignored(REPORT)),
    ("unit_base", Class::Ignored(REPORT)),
    ("log_entries", Class::Ignored(REPORT)),
    ("log_prio", Class::Ignored("command priorities: every command has priority 0")),
    ("block_error_percentiles", Class::Ignored(REPORT)),
    ("continue_on_error", Class::Ignored(ERRORS)),
    ("ignore_error", Class::Ignored(ERRORS)),
    ("error_dump", Class::Ignored(ERRORS)),
    ("exitall_on_error", Class::Ignored(ERRORS)),
    ("refill_buffers", Class::Ignored(DATA)),
    ("scramble_buffers", Class::Ignored(DATA)),
    ("buffer_pattern", Class::Ignored(DATA)),
    ("buffer_compress_chunk", Class::Ignored(DATA)),
    ("randrepeat", Class::Ignored(RANDOM)),
    ("randseed", Class::Ignored(RANDOM)),
    ("allrandrepeat", Class::Ignored(RANDOM)),
    ("random_generator", Class::Ignored(RANDOM)),
    ("softrandommap", Class::Ignored(RANDOM)),
    // Unsupported: they change the workload in ways the simulator does not model.
    ("bsrange", Class::Unsupported("size ranges: give the sizes as a bssplit")),
    ("blocksize_range", Class::Unsupported("size ranges: give the sizes as a bssplit")),
    ("bs_unaligned", Class::Unsupported("requests are whole 512-byte sectors")),
    ("blocksize_unaligned", Class::Unsupported("requests are whole 512-byte sectors")),
    ("bs_is_seq_rand", Class::Unsupported("sizes by sequential or random position")),
    ("rw_sequencer", Class::Unsupported("rw's offset modifier is not modelled")),
    ("number_ios", Class::Unsupported("a job limited by its count of I/Os (size and runtime limit it)")),
    ("fill_device", Class::Unsupported("writing until the device is full (size limits the job)")),
    ("fill_fs", Class::Unsupported("writing until the device is full (size limits the job)")),
    ("startdelay", Class::Unsupported(START)),
    ("exitall", Class::Unsupported(START)),
    ("exit_what", Class::Unsupported(START)),
    ("wait_for", Class::Unsupported("waiting for a named job (stonewall orders phases)")),
    ("flow", Class::Unsupported("flow control between jobs")),
    ("flow_id", Class::Unsupported("flow control between jobs")),
    ("flow_sleep", Class::Unsupported("flow control between jobs")),
    ("rate_min", Class::Unsupported("a job stopped for missing its rate")),
    ("ratemin", Class::Unsupported("a job stopped for missing its rate")),
    ("rate_iops_min", Class::Unsupported("a job stopped for missing its rate")),
    ("rate_ignore_thinktime", Class::Unsupported("rates that ignore the think time")),
    ("thinktime_iotime", Class::Unsupported("think time by elapsed I/O time")),
    ("max_latency", Class::Unsupported(LATENCY)),
    ("latency_target", Class::Unsupported(LATENCY)),
    ("latency_window", Class::Unsupported(LATENCY)),
    ("latency_percentile", Class::Unsupported(LATENCY)),
    ("latency_run", Class::Unsupported(LATENCY)),
    ("zero_buffers", Class::Unsupported(DATA)),
    ("dedupe_percentage", Class::Unsupported("deduplication is not modelled")),
    ("dedupe_mode", Class::Unsupported("deduplication is not modelled")),
    ("dedupe_working_set_percentage", Class::Unsupported("deduplication is not modelled")),
    ("dedupe_global", Class::Unsupported("deduplication is not modelled")),
    ("write_hint", Class::Unsupported("write lifetime hints (streams) are not modelled")),
    ("verify", Class::Unsupported(VERIFY)),
    ("do_verify", Class::Unsupported(VERIFY)),
    ("verify_only", Class::Unsupported(VERIFY)),
    ("verify_interval", Class::Unsupported(VERIFY)),
    ("verify_offset", Class::Unsupported(VERIFY)),
    ("verify_pattern", Class::Unsupported(VERIFY)),
    ("verify_fatal", Class::Unsupported(VERIFY)),
    ("verify_dump", Class::Unsupported(VERIFY)),
    ("verify_async", Class::Unsupported(VERIFY)),
    ("verify_async_cpus", Class::Unsupported(VERIFY)),
    ("verify_backlog", Class::Unsupported(VERIFY)),
    ("verify_backlog_batch", Class::Unsupported(VERIFY)),
    ("verify_state_load", Class::Unsupported(VERIFY)),
    ("verify_state_save", Class::Unsupported(VERIFY)),
    ("experimental_verify", Class::Unsupported(VERIFY)),
    ("trim_percentage", Class::Unsupported(VERIFY)),
    ("trim_verify_zero", Class::Unsupported(VERIFY)),
    ("trim_backlog", Class::Unsupported(VERIFY)),
    ("trim_backlog_batch", Class::Unsupported(VERIFY)),
    ("fsync", Class::Unsupported(FLUSH)),
    ("fdatasync", Class::Unsupported(FLUSH)),
    ("end_fsync", Class::Unsupported(FLUSH)),
    ("fsync_on_close", Class::Unsupported(FLUSH)),
    ("sync", Class::Unsupported(FLUSH)),
    ("write_barrier", Class::Unsupported(FLUSH)),
    ("sync_file_range", Class::Unsupported(FLUSH)),
    // The HOWTO spells it write_zone_remainders; options.c (fio 3.42) names it so.
    (
        "write_zone_remainder",
        Class::Unsupported(
            "writing zone remainders smaller than a block: the simulator finishes such zones, fio's default",
        ),
    ),
    (
        "recover_zbd_write_error",
        Class::Ignored("error handling: writes in zonemode=zbd land at the write pointers and do not fail"),
    ),
    ("dp_scheme", Class::Unsupported("placement by offset ranges read from a scheme file: the file is not read")),
    ("read_iolog", Class::Unsupported(IOLOG)),
    ("read_iolog_chunked", Class::Unsupported(IOLOG)),
    ("write_iolog", Class::Unsupported(IOLOG)),
    ("replay_no_stall", Class::Unsupported(IOLOG)),
    ("replay_redirect", Class::Unsupported(IOLOG)),
    ("replay_scale", Class::Unsupported(IOLOG)),
    ("replay_align", Class::Unsupported(IOLOG)),
    ("replay_time_scale", Class::Unsupported(IOLOG)),
    ("replay_skip", Class::Unsupported(IOLOG)),
    ("merge_blktrace_file", Class::Unsupported(IOLOG)),
    ("merge_blktrace_scalars", Class::Unsupported(IOLOG)),
    ("merge_blktrace_iters", Class::Unsupported(IOLOG)),
    ("write_hist_log", Class::Unsupported(HIST)),
    ("log_hist_msec", Class::Unsupported(HIST)),
    ("log_hist_coarseness", Class::Unsupported(HIST)),
    ("log_compression", Class::Unsupported(LOGFMT)),
    ("log_compression_cpus", Class::Unsupported(LOGFMT)),
    ("log_store_compressed", Class::Unsupported(LOGFMT)),
    ("log_unix_epoch", Class::Unsupported(LOGFMT)),
    ("log_alternate_epoch", Class::Unsupported(LOGFMT)),
    ("log_alternate_epoch_clock_id", Class::Unsupported(LOGFMT)),
    ("unified_rw_reporting", Class::Unsupported("reads, writes and trims are reported apart")),
    ("profile", Class::Unsupported("fio's built-in profiles")),
    // I/O engines' own options.
    ("arguments", Class::Ignored(ENGINE)),
    ("bindname", Class::Ignored(ENGINE)),
    ("brick", Class::Ignored(ENGINE)),
    ("busy_poll", Class::Ignored(ENGINE)),
    ("busy_wait_polling", Class::Ignored(ENGINE)),
    ("clientname", Class::Ignored(ENGINE)),
    ("clustername", Class::Ignored(ENGINE)),
    ("cmd_type", Class::Ignored(ENGINE)),
    ("cmdprio", Class::Ignored(ENGINE)),
    ("cmdprio_bssplit", Class::Ignored(ENGINE)),
    ("cmdprio_class", Class::Ignored(ENGINE)),
    ("cmdprio_percentage", Class::Ignored(ENGINE)),
    ("conf", Class::Ignored(ENGINE)),
    ("cont", Class::Ignored(ENGINE)),
    ("cpuchunks", Class::Ignored(ENGINE)),
    ("cpuload", Class::Ignored(ENGINE)),
    ("cpumode", Class::Ignored(ENGINE)),
    ("cuda_io", Class::Ignored(ENGINE)),
    ("direct_write_to_pmem", Class::Ignored(ENGINE)),
    ("donorname", Class::Ignored(ENGINE)),
    ("exit_on_io_done", Class::Ignored(ENGINE)),
    ("fixedbufs", Class::Ignored(ENGINE)),
    ("force_async", Class::Ignored(ENGINE)),
    ("gpu_dev_ids", Class::Ignored(ENGINE)),
    ("grace_time", Class::Ignored(ENGINE)),
    ("hdfsdirectory", Class::Ignored(ENGINE)),
    ("hipri", Class::Ignored(ENGINE)),
    ("hipri_percentage", Class::Ignored(ENGINE)),
    ("hostname", Class::Ignored(ENGINE)),
    ("http_host", Class::Ignored(ENGINE)),
    ("http_mode", Class::Ignored(ENGINE)),
    ("http_pass", Class::Ignored(ENGINE)),
    ("http_s3_key", Class::Ignored(ENGINE)),
    ("http_s3_keyid", Class::Ignored(ENGINE)),
    ("http_s3_region", Class::Ignored(ENGINE)),
    ("http_s3_sse_customer_algorithm", Class::Ignored(ENGINE)),
    ("http_s3_sse_customer_key", Class::Ignored(ENGINE)),
    ("http_s3_storage_class", Class::Ignored(ENGINE)),
    ("http_swift_auth_token", Class::Ignored(ENGINE)),
    ("http_user", Class::Ignored(ENGINE)),
    ("http_verbose", Class::Ignored(ENGINE)),
    ("https", Class::Ignored(ENGINE)),
    ("inplace", Class::Ignored(ENGINE)),
    ("interface", Class::Ignored(ENGINE)),
    ("listen", Class::Ignored(ENGINE)),
    ("mss", Class::Ignored(ENGINE)),
    ("namenode", Class::Ignored(ENGINE)),
    ("nfs_url", Class::Ignored(ENGINE)),
    ("nodelay", Class::Ignored(ENGINE)),
    ("nonvectored", Class::Ignored(ENGINE)),
    ("nowait", Class::Ignored(ENGINE)),
    ("object_class", Class::Ignored(ENGINE)),
    ("pingpong", Class::Ignored(ENGINE)),
    ("pool", Class::Ignored(ENGINE)),
    ("port", Class::Ignored(ENGINE)),
    ("program", Class::Ignored(ENGINE)),
    ("protocol", Class::Ignored(ENGINE)),
    ("proto", Class::Ignored(ENGINE)),
    ("rbdname", Class::Ignored(ENGINE)),
    ("readfua", Class::Ignored(ENGINE)),
    ("registerfiles", Class::Ignored(ENGINE)),
    ("serverip", Class::Ignored(ENGINE)),
    ("sg_write_mode", Class::Ignored(ENGINE)),
    ("skip_bad", Class::Ignored(ENGINE)),
    ("sqthread_poll", Class::Ignored(ENGINE)),
    ("sqthread_poll_cpu", Class::Ignored(ENGINE)),
    ("stat_type", Class::Ignored(ENGINE)),
    ("std_redirect", Class::Ignored(ENGINE)),
    ("stream_id", Class::Ignored(ENGINE)),
    ("touch_objects", Class::Ignored(ENGINE)),
    ("ttl", Class::Ignored(ENGINE)),
    ("uncached", Class::Ignored(ENGINE)),
    ("uri", Class::Ignored(ENGINE)),
    ("userspace_reap", Class::Ignored(ENGINE)),
    ("verb", Class::Ignored(ENGINE)),
    ("volume", Class::Ignored(ENGINE)),
    ("window_size", Class::Ignored(ENGINE)),
    ("writefua", Class::Ignored(ENGINE)),
    ("xnvme_admin", Class::Ignored(ENGINE)),
    ("xnvme_async", Class::Ignored(ENGINE)),
    ("xnvme_dev_nsid", Class::Ignored(ENGINE)),
    ("xnvme_iovec", Class::Ignored(ENGINE)),
    ("xnvme_sync", Class::Ignored(ENGINE)),
];

/// Aliases fio accepts for one option, and the name the import reads.
const ALIASES: &[(&str, &str)] = &[
    ("readwrite", "rw"),
    ("blocksize", "bs"),
    ("blockalign", "ba"),
    ("io_limit", "io_size"),
    ("fileoffset", "offset"),
    ("timeout", "runtime"),
    ("wait_for_previous", "stonewall"),
    ("ss", "steadystate"),
    ("ss_dur", "steadystate_duration"),
    ("ss_ramp", "steadystate_ramp_time"),
    ("data_placement", "dataplacement"),
    ("fdp_pli_select", "plid_select"),
    ("fdp_pli", "plids"),
];

/// The name the import reads for `name` (an alias maps to its option).
pub fn canonical(name: &str) -> &str {
    ALIASES.iter().find(|(a, _)| *a == name).map_or(name, |(_, c)| c)
}

/// What the import does with `name`; None if fio 3.33 has no such option.
pub fn class(name: &str) -> Option<Class> {
    OPTIONS.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// The option nearest to a name fio does not know (a typo), if one is close.
pub fn nearest(name: &str) -> Option<&'static str> {
    OPTIONS
        .iter()
        .map(|(n, _)| (distance(name, n), *n))
        .filter(|&(d, n)| d <= (n.len() / 3).max(1))
        .min()
        .map(|(_, n)| n)
}

/// Levenshtein distance.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + (ca != cb) as usize).min(row[j] + 1).min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// I/O engines that keep one command in flight whatever iodepth says.
pub const SYNC_ENGINES: &[&str] =
    &["sync", "psync", "vsync", "pvsync", "pvsync2", "mmap", "splice", "pmemblk", "dev-dax", "libpmem", "mtd"];

/// I/O engines that do no block I/O to a drive (CPU burners, networks, file-system calls).
pub const NON_BLOCK_ENGINES: &[&str] = &[
    "cpuio",
    "net",
    "netsplice",
    "rdma",
    "filecreate",
    "filestat",
    "filedelete",
    "dircreate",
    "dirstat",
    "dirdelete",
    "ftruncate",
    "falloc",
    "e4defrag",
    "exec",
    "http",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_listed_once_and_aliases_name_honoured_options() {
        for (i, (name, _)) in OPTIONS.iter().enumerate() {
            assert!(!OPTIONS[..i].iter().any(|(n, _)| n == name), "{} listed twice", name);
        }
        for (alias, option) in ALIASES {
            assert_eq!(class(alias), Some(Class::Honoured), "{}", alias);
            assert_eq!(class(option), Some(Class::Honoured), "{}", option);
        }
        assert_eq!(nearest("iodpeth"), Some("iodepth"));
        assert_eq!(nearest("rwmixcycle"), None);
        assert_eq!(canonical("ss_dur"), "steadystate_duration");
    }

    #[test]
    fn fio_s_older_aliases_read_as_their_options_and_threads_is_none() {
        // fio 3.33's options.c names these aliases (since 2007-2010); ceph/ceph's
        // src/test/fio/ceph-bluestore.fio (commit 4486ae75) writes nr_files=64.
        for (alias, option) in
            [("nr_files", "nrfiles"), ("fileoffset", "offset"), ("ratemin", "rate_min"), ("ratecycle", "rate_cycle")]
        {
            assert!(class(alias).is_some() && class(alias) == class(option), "{}", alias);
        }
        assert_eq!(canonical("fileoffset"), "offset");
        // fio has `thread` and refuses `threads` as a bad option (mcgrof/fio-tests' templates
        // write threads=1).
        assert_eq!(class("threads"), None);
        assert_eq!(nearest("threads"), Some("thread"));
    }
}
