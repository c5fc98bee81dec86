# `harness batch` (issue 14): shards equal one-shot, resume, failures alone.
add_test(NAME batch_shards_resume_failures
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/batch_test.py $<TARGET_FILE:harness>
          ${CMAKE_CURRENT_BINARY_DIR}/batch_work)
