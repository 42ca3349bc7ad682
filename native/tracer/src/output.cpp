#include "output.h"

#include "batch_pool.h"
#include "gotrace/v2_spec.h"

namespace gotrace::tracer::detail {

Generation::~Generation() {
  for (Batch* b = batches; b;) {
    Batch* next = b->next;
    pool_.put(b);
    b = next;
  }
}

void Output::begin(std::unique_ptr<Sink> sink, Format format, size_t flight_generations, size_t flight_bytes) {
  sink_ = std::move(sink);
  format_ = format;
  header_written_ = gap_ = ended_ = false;
  leading_empty_.reset();
  ending_ = false;
  queue_.clear();
  flight_.clear();
  flight_bytes_ = 0;
  flight_generations_ = flight_generations;
  flight_bytes_limit_ = flight_bytes;
  stats_ = Stats();
  if (sink_) thread_ = std::thread([this] { run(); });
}

void Output::push(GenerationPtr g) {
  std::lock_guard lock(mu_);
  if (flight_generations_ > 0) {
    if (g->lossy) {
      // The recording must be consecutive generations: start over after a loss.
      flight_.clear();
      flight_bytes_ = 0;
    } else {
      flight_.push_back(g);
      flight_bytes_ += g->bytes;
      while (flight_.size() > flight_generations_ || (flight_.size() > 1 && flight_bytes_ > flight_bytes_limit_)) {
        flight_bytes_ -= flight_.front()->bytes;
        flight_.pop_front();
      }
    }
  }
  if (sink_) {
    queue_.push_back(std::move(g));
    cv_.notify_one();
  } else if (g->lossy) {
    stats_.generations_dropped++;
    stats_.events_dropped += g->events + g->dropped_events;
  }
}

void Output::end() {
  {
    std::lock_guard lock(mu_);
    ending_ = true;
    cv_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  if (sink_) sink_->close();
  sink_.reset();
  std::lock_guard lock(mu_);
  flight_.clear();
  flight_bytes_ = 0;
}

void Output::run() {
  for (;;) {
    GenerationPtr g;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return !queue_.empty() || ending_; });
      if (queue_.empty()) break;
      g = std::move(queue_.front());
      queue_.pop_front();
    }
    if (g->lossy) {
      gap_ = true;
      drop(*g);
      continue;
    }
    if (gap_ && header_written_) {
      // What was written is a complete trace that cannot go on past the gap.
      if (!sink_->begin_segment()) ended_ = true;
      header_written_ = false;
    }
    gap_ = false;
    if (ended_) {
      drop(*g);
      continue;
    }
    if (!header_written_ && !g->has_ordered_events()) {
      leading_empty_ = std::move(g);
      continue;
    }
    leading_empty_.reset();
    write(*g);
  }
  if (!header_written_ && leading_empty_ && !ended_) write(*leading_empty_);
  leading_empty_.reset();
}

void Output::write(const Generation& g) {
  uint64_t bytes = 0;
  if (!header_written_) {
    if (!sink_->write(header())) return sink_failed(g);
    header_written_ = true;
    bytes += header().size();
    std::lock_guard lock(mu_);
    stats_.segments++;
  }
  for (const Batch* b = g.batches; b; b = b->next) {
    if (!sink_->write(b->bytes())) return sink_failed(g);
  }
  if (!end_of_generation().empty() && !sink_->write(end_of_generation())) return sink_failed(g);
  bytes += end_of_generation().size();
  sink_->generation_written();
  std::lock_guard lock(mu_);
  stats_.generations++;
  stats_.events += g.events;
  stats_.cpu_samples += g.cpu_samples;
  stats_.bytes += bytes + g.bytes;
}

// A write of `g` failed: the sink takes nothing more, and keeps its last whole
// generation (a generation cut short would break the trace).
void Output::sink_failed(const Generation& g) {
  ended_ = true;
  sink_->discard_partial_generation();
  std::lock_guard lock(mu_);
  stats_.sink_failed = true;
  drop_locked(g);
}

void Output::drop(const Generation& g) {
  std::lock_guard lock(mu_);
  drop_locked(g);
}

void Output::drop_locked(const Generation& g) {
  stats_.generations_dropped++;
  stats_.events_dropped += g.events + g.dropped_events;
  stats_.bytes_dropped += g.bytes;
}

void Output::add_stats(Stats& s) const {
  std::lock_guard lock(mu_);
  s.generations = stats_.generations;
  s.generations_dropped = stats_.generations_dropped;
  s.events = stats_.events;
  s.events_dropped = stats_.events_dropped;
  s.bytes = stats_.bytes;
  s.bytes_dropped = stats_.bytes_dropped;
  s.cpu_samples = stats_.cpu_samples;
  s.segments = stats_.segments;
  s.sink_failed = stats_.sink_failed;
}

FlightRecording Output::write_flight(Sink& sink) {
  FlightRecording rec;
  std::deque<GenerationPtr> gens;
  {
    std::lock_guard lock(mu_);
    gens = flight_;
  }
  // As in the stream: the recording starts at a generation with events, if any has one.
  while (gens.size() > 1 && !gens.front()->has_ordered_events()) gens.pop_front();
  if (gens.empty()) {
    rec.error = "the flight recorder holds no generation";
    return rec;
  }
  if (!sink.write(header())) {
    rec.error = "the sink refused the header";
    return rec;
  }
  rec.bytes = header().size();
  for (const GenerationPtr& g : gens) {
    for (const Batch* b = g->batches; b; b = b->next) {
      if (!sink.write(b->bytes())) {
        rec.error = "the sink refused a write";
        return rec;
      }
    }
    if (!end_of_generation().empty() && !sink.write(end_of_generation())) {
      rec.error = "the sink refused a write";
      return rec;
    }
    rec.generations++;
    rec.events += g->events;
    rec.bytes += g->bytes + end_of_generation().size();
  }
  sink.close();
  rec.ok = true;
  return rec;
}

std::span<const uint8_t> Output::header() const {
  const char* h = format_ == Format::go1_23 ? kTraceHeader123 : kTraceHeader126;
  return {reinterpret_cast<const uint8_t*>(h), sizeof kTraceHeader126};
}

std::span<const uint8_t> Output::end_of_generation() const {
  static constexpr uint8_t kEnd[1] = {v2::EvEndOfGeneration};
  if (format_ == Format::go1_23) return {};
  return {kEnd, 1};
}

}  // namespace gotrace::tracer::detail
