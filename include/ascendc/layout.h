// The basic API's Layout data structure (辅助数据结构/Layout): Shape and Stride (aliases of
// Std::tuple), MakeShape, MakeStride, MakeLayout, Layout<Shape, Stride> with GetShape, GetStride,
// layout() and operator()(coord), and is_layout / is_layout_v. Stride units are elements.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "compat.h"

namespace AscendC {
namespace Std {
using std::tuple_element;
using std::tuple_size;
}  // namespace Std

// The logical extents of a tensor, one entry per dimension (nested tuples for hierarchical
// dimensions).
template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;

// The distance in elements between neighbours of each dimension, matching Shape.
template <typename... Strides>
using Stride = Std::tuple<Strides...>;

namespace detail {

template <typename T>
struct LayoutIsTuple : std::false_type {};
template <typename... A>
struct LayoutIsTuple<std::tuple<A...>> : std::true_type {};

// The elements a (possibly nested) shape entry spans.
template <typename S>
constexpr int64_t LayoutExtent(const S& s) {
    if constexpr (LayoutIsTuple<S>::value) {
        return std::apply([](const auto&... e) { return (int64_t{1} * ... * LayoutExtent(e)); }, s);
    } else {
        return static_cast<int64_t>(s);
    }
}

template <typename C, typename S, typename D>
constexpr int64_t LayoutCrd2Idx(const C& c, const S& s, const D& d);

template <typename C, typename S, typename D, size_t... I>
constexpr int64_t LayoutDot(const C& c, const S& s, const D& d, std::index_sequence<I...>) {
    return (int64_t{0} + ... + LayoutCrd2Idx(std::get<I>(c), std::get<I>(s), std::get<I>(d)));
}

// A linear coordinate split over a shape, first dimension fastest (column-major); the last
// dimension takes what is left (so its extent is never divided by).
template <typename S, typename D, size_t... I>
constexpr int64_t LayoutDelinearize(int64_t c, const S& s, const D& d, std::index_sequence<I...>) {
    constexpr size_t last = sizeof...(I) - 1;
    int64_t idx = 0;
    ((idx += I == last ? LayoutCrd2Idx(c, std::get<I>(s), std::get<I>(d))
                       : LayoutCrd2Idx(c % LayoutExtent(std::get<I>(s)), std::get<I>(s), std::get<I>(d)),
      c = I == last ? c : c / LayoutExtent(std::get<I>(s))),
     ...);
    return idx;
}

// Crd2Idx: Σ coord_i · stride_i, a linear coordinate first split over the shape.
template <typename C, typename S, typename D>
constexpr int64_t LayoutCrd2Idx(const C& c, const S& s, const D& d) {
    if constexpr (LayoutIsTuple<C>::value) {
        static_assert(std::tuple_size<C>::value == std::tuple_size<D>::value,
                      "Layout: the coordinate and the stride have different ranks");
        return LayoutDot(c, s, d, std::make_index_sequence<std::tuple_size<C>::value>{});
    } else if constexpr (LayoutIsTuple<D>::value) {
        static_assert(std::tuple_size<S>::value == std::tuple_size<D>::value,
                      "Layout: the shape and the stride have different ranks");
        return LayoutDelinearize(static_cast<int64_t>(c), s, d,
                                 std::make_index_sequence<std::tuple_size<D>::value>{});
    } else {
        return static_cast<int64_t>(c) * static_cast<int64_t>(d);
    }
}

}  // namespace detail

// Packs values into a Shape.
template <typename... Ts>
constexpr Shape<Ts...> MakeShape(const Ts&... t) {
    return Shape<Ts...>{t...};
}

// Crd2Idx: the element offset of `coord` in the layout (Σ cᵢ·sᵢ, a linear coordinate first
// split over the shape). A runtime int64_t here, also for Std::Int entries.
template <typename CoordType, typename ShapeType, typename StrideType>
constexpr int64_t Crd2Idx(const CoordType& coord, const ShapeType& shape, const StrideType& stride) {
    return detail::LayoutCrd2Idx(coord, shape, stride);
}

// A coordinate in a Layout (a Std::tuple), as `layout(coord)` takes it.
template <typename... Ts>
using Coord = Std::tuple<Ts...>;

// Packs values into a Coord.
template <typename... Ts>
constexpr Coord<Ts...> MakeCoord(const Ts&... t) {
    return Coord<Ts...>{t...};
}

// Packs values into a Stride (none: an empty Stride, as TransData's parameters use).
template <typename... Ts>
constexpr Stride<Ts...> MakeStride(const Ts&... t) {
    return Stride<Ts...>{t...};
}

// A Shape and a Stride: the map from logical coordinates to element offsets.
template <typename ShapeType, typename StrideType>
struct Layout {
    static_assert(detail::LayoutIsTuple<ShapeType>::value && detail::LayoutIsTuple<StrideType>::value,
                  "Shape or Stride is not tuple!");

    constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {}) : shape_(shape), stride_(stride) {}

    // The object itself.
    constexpr Layout& layout() { return *this; }
    constexpr const Layout& layout() const { return *this; }

    // The Shape; with indices, a tuple of the chosen dimensions.
    template <size_t... I>
    constexpr decltype(auto) GetShape() {
        return Pick<I...>(shape_);
    }
    template <size_t... I>
    constexpr decltype(auto) GetShape() const {
        return Pick<I...>(shape_);
    }

    // The Stride; with indices, a tuple of the chosen dimensions.
    template <size_t... I>
    constexpr decltype(auto) GetStride() {
        return Pick<I...>(stride_);
    }
    template <size_t... I>
    constexpr decltype(auto) GetStride() const {
        return Pick<I...>(stride_);
    }

    // The element offset of a coordinate (a tuple matching the Stride, or a linear index split
    // over the Shape first dimension fastest): Crd2Idx(coord, GetShape(), GetStride()).
    template <typename CoordType>
    constexpr auto operator()(const CoordType& coord) const {
        return detail::LayoutCrd2Idx(coord, shape_, stride_);
    }

private:
    template <size_t... I, typename Tuple>
    static constexpr decltype(auto) Pick(Tuple& t) {
        if constexpr (sizeof...(I) == 0) {
            return (t);
        } else {
            return Std::make_tuple(std::get<I>(t)...);
        }
    }

    ShapeType shape_;
    StrideType stride_;
};

// A Layout of a Shape and a Stride.
template <typename ShapeType, typename StrideType>
constexpr auto MakeLayout(const ShapeType& shape, const StrideType& stride) {
    return Layout<ShapeType, StrideType>(shape, stride);
}

// Whether T is a Layout (`value`).
template <typename T>
struct is_layout : std::false_type {};
template <typename T, typename U>
struct is_layout<Layout<T, U>> : std::true_type {};
template <typename T>
constexpr bool is_layout_v = is_layout<T>::value;

// Crd2Idx(coord, layout): `layout(coord)`.
template <typename CoordType, typename ShapeType, typename StrideType>
constexpr int64_t Crd2Idx(const CoordType& coord, const Layout<ShapeType, StrideType>& layout) {
    return layout(coord);
}

}  // namespace AscendC
